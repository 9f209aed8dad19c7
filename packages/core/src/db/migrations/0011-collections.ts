import { Migration } from '@mikro-orm/migrations';

/**
 * Collections: a user's named lists of their own debates, and each debate's place in them. Positions are
 * unique per collection, deferrably, so one statement can renumber a collection.
 */
export class Migration0011Collections extends Migration {
  override name = '0011-collections';

  override up(): void {
    this.addSql(`create table "collections" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "name" varchar(100) not null,
      "description" varchar(500) null,
      "is_public" boolean not null default false,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "collections_pkey" primary key ("id"),
      constraint "collections_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`create index "collections_user_created_index" on "collections" ("user_id", "created_at");`);
    this.addSql(`create table "collection_items" (
      "collection_id" uuid not null,
      "debate_id" uuid not null,
      "position" int not null,
      "added_at" timestamptz not null default now(),
      constraint "collection_items_pkey" primary key ("collection_id", "debate_id"),
      constraint "collection_items_collection_id_foreign" foreign key ("collection_id")
        references "collections" ("id") on delete cascade,
      constraint "collection_items_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade,
      constraint "collection_items_position_check" check ("position" >= 0)
    );`);
    this.addSql(`create index "collection_items_debate_id_index" on "collection_items" ("debate_id");`);
    this.addSql(`alter table "collection_items" add constraint "collection_items_collection_id_position_unique"
      unique ("collection_id", "position") deferrable initially immediate;`);
  }
}
