import { Migration } from '@mikro-orm/migrations';

/**
 * Recommendations: which debate a fork came from (forks count towards trending), and an index over the public
 * debates trending reads newest first.
 */
export class Migration0015Recommendations extends Migration {
  override name = '0015-recommendations';

  override up(): void {
    this.addSql(`alter table "debates" add column "forked_from_id" uuid null;`);
    this.addSql(`create index "debates_forked_from_id_index" on "debates" ("forked_from_id");`);
    this.addSql(`create index "debates_public_created_index" on "debates" ("created_at")
      where "is_public" = true and "deleted_at" is null;`);
  }
}
