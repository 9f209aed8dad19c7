import { Migration } from '@mikro-orm/migrations';

/**
 * An operator-set per-minute request limit for one account (the "custom" limit of enterprise contracts);
 * null means the plan's limit. Every key and the dashboard session of the account share it.
 */
export class Migration0008AccountRateLimit extends Migration {
  override name = '0008-account-rate-limit';

  override up(): void {
    this.addSql('alter table "users" add column "rate_limit_per_minute" int null;');
  }
}
