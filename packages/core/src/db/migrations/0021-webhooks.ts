import { Migration } from '@mikro-orm/migrations';

/**
 * User webhooks: the registrations, one delivery per event and webhook (the exact body it sends, its state
 * and when it is due), and each attempt's result. Deleting a webhook deletes its deliveries and attempts.
 */
export class Migration0021Webhooks extends Migration {
  override name = '0021-webhooks';

  override up(): void {
    this.addSql(`create table "webhooks" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "url" varchar(2000) not null,
      "events" text[] not null,
      "active" boolean not null default true,
      "description" varchar(500) null,
      "secret" varchar(100) not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "webhooks_pkey" primary key ("id"),
      constraint "webhooks_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`create index "webhooks_user_created_index" on "webhooks" ("user_id", "created_at");`);
    this.addSql(`create table "webhook_deliveries" (
      "id" uuid not null default gen_random_uuid(),
      "webhook_id" uuid not null,
      "outbox_id" uuid null,
      "redelivery_of" uuid null,
      "event" varchar(50) not null,
      "body" text not null,
      "status" varchar(20) not null default 'pending',
      "attempts" int not null default 0,
      "due_at" timestamptz null,
      "claim" uuid null,
      "last_status_code" int null,
      "created_at" timestamptz not null default now(),
      constraint "webhook_deliveries_pkey" primary key ("id"),
      constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id")
        references "webhooks" ("id") on delete cascade,
      constraint "webhook_deliveries_status_check"
        check ("status" in ('pending', 'delivering', 'succeeded', 'failed'))
    );`);
    this.addSql(`create index "webhook_deliveries_webhook_created_index"
      on "webhook_deliveries" ("webhook_id", "created_at");`);
    this.addSql(`create index "webhook_deliveries_due_index" on "webhook_deliveries" ("due_at")
      where "status" in ('pending', 'delivering');`);
    this.addSql(`create table "webhook_delivery_attempts" (
      "delivery_id" uuid not null,
      "attempt" int not null,
      "started_at" timestamptz not null,
      "status_code" int null,
      "duration_ms" int not null,
      "response_excerpt" varchar(1024) null,
      "error" varchar(500) null,
      constraint "webhook_delivery_attempts_pkey" primary key ("delivery_id", "attempt"),
      constraint "webhook_delivery_attempts_delivery_id_foreign" foreign key ("delivery_id")
        references "webhook_deliveries" ("id") on delete cascade
    );`);
  }
}
