import { Migration } from '@mikro-orm/migrations';

/** Soft delete, workspace placement and the models a debate ran on. */
export class Migration0003DebateReads extends Migration {
  override name = '0003-debate-reads';

  override up(): void {
    this.addSql(`alter table "debates" add column "workspace_id" uuid null;`);
    this.addSql(`alter table "debates" add column "deleted_at" timestamptz null;`);
    this.addSql(`alter table "debates" add column "agents_used" jsonb null;`);
    this.addSql(`create index "debates_owner_created_index" on "debates" ("owner_id", "created_at");`);
  }
}
