import { Migration } from '@mikro-orm/migrations';

/**
 * API processes follow the attempts their streams show (debates/event-fanout.ts) and must end those streams
 * when the attempt ends without its last event: the debate deleted (soft or for good), or retried as a new
 * attempt. These triggers say so, on commit, to every process listening on `debate_attempt_ends`, whichever
 * process or operator command wrote the row, so an idle stream never has to ask the database. The payload is
 * `<schema> <debate id> <attempt>`: every attempt up to that one has ended.
 */
export class Migration0036DebateAttemptEnds extends Migration {
  override name = '0036-debate-attempt-ends';

  override up(): void {
    this.addSql(`create function "debate_attempt_ended"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('debate_attempt_ends', tg_table_schema || ' ' || old.id || ' ' || old.attempt);
        return null;
      end;
    $$;`);
    this.addSql(`create trigger "debates_attempt_ended" after update of "attempt", "deleted_at" on "debates"
      for each row when (old.attempt is distinct from new.attempt
        or (old.deleted_at is null and new.deleted_at is not null))
      execute function "debate_attempt_ended"();`);
    this.addSql(`create trigger "debates_removed" after delete on "debates"
      for each row execute function "debate_attempt_ended"();`);
  }
}
