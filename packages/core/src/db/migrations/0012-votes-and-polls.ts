import { Migration } from '@mikro-orm/migrations';

/**
 * Readers' reactions to a debate: agree/disagree votes on its agent messages (named by claimId), and the
 * audience polls its owner runs, with one vote per reader per poll. All of it goes with its debate.
 */
export class Migration0012VotesAndPolls extends Migration {
  override name = '0012-votes-and-polls';

  override up(): void {
    this.addSql(`create table "argument_votes" (
      "debate_id" uuid not null,
      "claim_id" varchar(120) not null,
      "user_id" uuid not null,
      "vote" varchar(10) not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "argument_votes_pkey" primary key ("debate_id", "claim_id", "user_id"),
      constraint "argument_votes_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade,
      constraint "argument_votes_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade,
      constraint "argument_votes_vote_check" check ("vote" in ('agree', 'disagree'))
    );`);
    this.addSql(`create index "argument_votes_user_id_index" on "argument_votes" ("user_id");`);
    this.addSql(`create table "polls" (
      "id" uuid not null default gen_random_uuid(),
      "debate_id" uuid not null,
      "question" varchar(200) not null,
      "options" jsonb not null,
      "created_at" timestamptz not null default now(),
      "closed_at" timestamptz null,
      constraint "polls_pkey" primary key ("id"),
      constraint "polls_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade
    );`);
    this.addSql(`create index "polls_debate_created_index" on "polls" ("debate_id", "created_at");`);
    this.addSql(`create table "poll_votes" (
      "poll_id" uuid not null,
      "user_id" uuid not null,
      "option_id" uuid not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "poll_votes_pkey" primary key ("poll_id", "user_id"),
      constraint "poll_votes_poll_id_foreign" foreign key ("poll_id")
        references "polls" ("id") on delete cascade,
      constraint "poll_votes_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`create index "poll_votes_user_id_index" on "poll_votes" ("user_id");`);
  }
}
