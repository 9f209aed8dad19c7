import { Migration } from '@mikro-orm/migrations';

/**
 * What each LLM call of a debate cost at list price, in whole nanodollars (10⁻⁹ USD: exact, and exact to sum):
 * on each turn (null for turns stored before costs were recorded), and the calls that are not turns — the
 * judge's (one per attempt at a verdict) and the classifier's — in `debate_calls`, written with the final state.
 */
export class Migration0032CallCosts extends Migration {
  override name = '0032-call-costs';

  override up(): void {
    this.addSql(`alter table "debate_turns" add column "cost_nano_usd" bigint null;`);
    this.addSql(`create table "debate_calls" (
      "debate_id" uuid not null,
      "attempt" int not null,
      "seq" int not null,
      "kind" varchar(20) not null,
      "model" varchar(200) not null,
      "input_tokens" int not null,
      "output_tokens" int not null,
      "cost_nano_usd" bigint not null,
      "created_at" timestamptz not null default now(),
      constraint "debate_calls_pkey" primary key ("debate_id", "attempt", "seq")
    );`);
    this.addSql(`alter table "debate_calls" add constraint "debate_calls_debate_id_foreign"
      foreign key ("debate_id") references "debates" ("id") on delete cascade;`);
  }
}
