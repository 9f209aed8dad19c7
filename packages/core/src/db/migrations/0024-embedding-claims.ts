import { Migration } from '@mikro-orm/migrations';

/**
 * The embedding worker claims a completed debate for a while instead of holding its outbox row locked
 * through the provider call: `embed_due_at` is when the row may be claimed (again) — the end of a claim, or
 * of the back-off after a failed call — and `embed_attempts` how many calls it has had, so a debate the
 * provider keeps refusing is given up on instead of retried forever.
 */
export class Migration0024EmbeddingClaims extends Migration {
  override name = '0024-embedding-claims';

  override up(): void {
    this.addSql(`alter table "webhook_outbox" add column "embed_due_at" timestamptz null;`);
    this.addSql(`alter table "webhook_outbox" add column "embed_attempts" smallint not null default 0;`);
  }
}
