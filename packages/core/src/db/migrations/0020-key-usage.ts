import { Migration } from '@mikro-orm/migrations';

/**
 * Per-key usage: requests per API key, UTC month and endpoint (route template), added to by every API
 * process once a second. The key's primary key serves the reads of one key's month.
 */
export class Migration0020KeyUsage extends Migration {
  override name = '0020-key-usage';

  override up(): void {
    this.addSql(`create table "key_usage" (
      "key_id" uuid not null,
      "period" date not null,
      "endpoint" text not null,
      "count" bigint not null,
      constraint "key_usage_pkey" primary key ("key_id", "period", "endpoint"),
      constraint "key_usage_key_id_foreign" foreign key ("key_id")
        references "api_keys" ("id") on delete cascade
    );`);
  }
}
