import { Migration } from '@mikro-orm/migrations';

/**
 * What a cost estimate reads (debates/creation/output-history.ts): the most recent turns of a model, its
 * openings (round one) and rebuttals apart, and the most recent judge and classifier calls of a model. Without
 * these each read was a scan of both tables, which grow with every debate.
 */
export class Migration0035OutputHistoryIndexes extends Migration {
  override name = '0035-output-history-indexes';

  override up(): void {
    this.addSql(`create index "debate_turns_model_recent_index"
      on "debate_turns" ("model", ("round" > 1), "created_at" desc);`);
    this.addSql(`create index "debate_calls_model_recent_index"
      on "debate_calls" ("model", "kind", "created_at" desc);`);
  }
}
