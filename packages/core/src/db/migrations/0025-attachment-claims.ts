import { Migration } from '@mikro-orm/migrations';

/**
 * Text extraction claims a pending attachment for a while instead of holding its row locked through the
 * extraction (up to 30 s per file): `claimed_until` is when the claim runs out and another node may take the
 * attachment again, `extraction_attempts` how many claims it has had, so a file whose extraction never
 * finishes (its node dies each time) fails instead of being retried forever.
 */
export class Migration0025AttachmentClaims extends Migration {
  override name = '0025-attachment-claims';

  override up(): void {
    this.addSql(`alter table "attachments" add column if not exists "claimed_until" timestamptz null;`);
    this.addSql(
      `alter table "attachments" add column if not exists "extraction_attempts" smallint not null default 0;`,
    );
  }
}
