import { Migration } from '@mikro-orm/migrations';

/**
 * Billing with the payment processor: each account's customer, its subscriptions, its invoices, the events
 * already handled (replays change nothing), and a unique reference on ledger rows so one payment adds its
 * credits once.
 */
export class Migration0019Billing extends Migration {
  override name = '0019-billing';

  override up(): void {
    this.addSql(`alter table "credit_ledger" add column "reference" varchar(255) null;`);
    this.addSql(
      `alter table "credit_ledger" add constraint "credit_ledger_reference_unique" unique ("reference");`,
    );
    this.addSql(`create table "billing_customers" (
      "user_id" uuid not null,
      "stripe_customer_id" varchar(255) not null,
      "created_at" timestamptz not null default now(),
      constraint "billing_customers_pkey" primary key ("user_id"),
      constraint "billing_customers_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`alter table "billing_customers" add constraint "billing_customers_stripe_customer_id_unique"
      unique ("stripe_customer_id");`);
    this.addSql(`create table "subscriptions" (
      "stripe_subscription_id" varchar(255) not null,
      "user_id" uuid not null,
      "plan" varchar(20) not null,
      "status" varchar(30) not null,
      "cancel_at_period_end" boolean not null default false,
      "current_period_end" timestamptz null,
      "updated_at" timestamptz not null default now(),
      constraint "subscriptions_pkey" primary key ("stripe_subscription_id"),
      constraint "subscriptions_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`create index "subscriptions_user_id_index" on "subscriptions" ("user_id");`);
    this.addSql(`create table "invoices" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "workspace_id" uuid null,
      "type" varchar(20) not null,
      "description" varchar(500) not null,
      "amount_cents" int not null,
      "currency" varchar(3) not null,
      "status" varchar(20) not null,
      "stripe_invoice_id" varchar(255) null,
      "stripe_session_id" varchar(255) null,
      "stripe_payment_intent_id" varchar(255) null,
      "stripe_invoice_url" varchar(2048) null,
      "stripe_receipt_url" varchar(2048) null,
      "metadata" jsonb not null,
      "created_at" timestamptz not null default now(),
      constraint "invoices_pkey" primary key ("id"),
      constraint "invoices_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`create index "invoices_user_created_index" on "invoices" ("user_id", "created_at");`);
    this.addSql(
      `alter table "invoices" add constraint "invoices_stripe_invoice_id_unique" unique ("stripe_invoice_id");`,
    );
    this.addSql(
      `alter table "invoices" add constraint "invoices_stripe_session_id_unique" unique ("stripe_session_id");`,
    );
    this.addSql(`create table "stripe_events" (
      "id" varchar(255) not null,
      "type" varchar(100) not null,
      "processed_at" timestamptz not null default now(),
      constraint "stripe_events_pkey" primary key ("id")
    );`);
  }
}
