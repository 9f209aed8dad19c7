import { Migration } from '@mikro-orm/migrations';

/** Idempotency keys of create requests, and which debate a credit movement paid for. */
export class Migration0004DebateCreation extends Migration {
  override name = '0004-debate-creation';

  override up(): void {
    this.addSql(`alter table "credit_ledger" add column "debate_id" uuid null;`);
    this.addSql(`create table "idempotency_keys" (
      "owner_id" uuid not null,
      "route" varchar(50) not null,
      "key" varchar(200) not null,
      "request_hash" varchar(64) not null,
      "debate_id" uuid not null,
      "created_at" timestamptz not null default now(),
      constraint "idempotency_keys_pkey" primary key ("owner_id", "route", "key")
    );`);
    this.addSql(`alter table "idempotency_keys" add constraint "idempotency_keys_owner_id_foreign"
      foreign key ("owner_id") references "users" ("id") on delete cascade;`);
  }
}
