import { Migration } from '@mikro-orm/migrations';

/**
 * Permanent deletion (DELETE /v1/verdicts/:id): events and turns go with their debate, and a tombstone
 * remembers who deleted what so a repeated delete answers 200 to its owner only.
 */
export class Migration0005DebateRemoval extends Migration {
  override name = '0005-debate-removal';

  override up(): void {
    this.addSql(
      `delete from "debate_events" e where not exists (select 1 from "debates" d where d."id" = e."debate_id");`,
    );
    this.addSql(
      `delete from "debate_turns" t where not exists (select 1 from "debates" d where d."id" = t."debate_id");`,
    );
    this.addSql(`alter table "debate_events" add constraint "debate_events_debate_id_foreign"
      foreign key ("debate_id") references "debates" ("id") on delete cascade;`);
    this.addSql(`alter table "debate_turns" add constraint "debate_turns_debate_id_foreign"
      foreign key ("debate_id") references "debates" ("id") on delete cascade;`);
    // The create path counts an owner's unfinished debates under a row lock: keep that an index lookup.
    this.addSql(`create index "debates_owner_status_index" on "debates" ("owner_id", "status");`);
    this.addSql(`create table "deleted_debates" (
      "id" uuid not null,
      "owner_id" uuid not null,
      "deleted_at" timestamptz not null default now(),
      constraint "deleted_debates_pkey" primary key ("id")
    );`);
  }
}
