import { Migration } from '@mikro-orm/migrations';

/**
 * Attachments of debates: the record (who uploaded what, the type the server decided, extraction status and
 * the extracted text) and, apart, the stored bytes, so listing attachments never reads them. Deleting a
 * debate deletes its attachments and their bytes.
 */
export class Migration0023Attachments extends Migration {
  override name = '0023-attachments';

  override up(): void {
    this.addSql(`create table "attachments" (
      "id" uuid not null default gen_random_uuid(),
      "debate_id" uuid not null,
      "owner_id" uuid not null,
      "kind" varchar(10) not null,
      "filename" varchar(255) not null,
      "content_type" varchar(100) not null,
      "size" int not null,
      "status" varchar(20) not null default 'pending',
      "failure_reason" varchar(500) null,
      "text" text null,
      "url" varchar(2000) null,
      "created_at" timestamptz not null default now(),
      constraint "attachments_pkey" primary key ("id"),
      constraint "attachments_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade,
      constraint "attachments_owner_id_foreign" foreign key ("owner_id")
        references "users" ("id") on delete cascade,
      constraint "attachments_kind_check" check ("kind" in ('file', 'url')),
      constraint "attachments_status_check" check ("status" in ('pending', 'ready', 'failed'))
    );`);
    this.addSql(
      `create index "attachments_debate_created_index" on "attachments" ("debate_id", "created_at");`,
    );
    this.addSql(`create index "attachments_owner_id_index" on "attachments" ("owner_id");`);
    this.addSql(`create index "attachments_pending_index" on "attachments" ("created_at")
      where "status" = 'pending';`);
    this.addSql(`create table "attachment_blobs" (
      "attachment_id" uuid not null,
      "bytes" bytea not null,
      constraint "attachment_blobs_pkey" primary key ("attachment_id"),
      constraint "attachment_blobs_attachment_id_foreign" foreign key ("attachment_id")
        references "attachments" ("id") on delete cascade
    );`);
  }
}
