import { Migration } from '@mikro-orm/migrations';

/**
 * Convergence and early stop: each turn's stated position (the engine's parse of its `POSITION:` line; null
 * when it had none), a debate's early-stop threshold (null: it runs every round) and, for a comparison, its
 * options (the engine asks the agents to rank them, by letter).
 */
export class Migration0031Convergence extends Migration {
  override name = '0031-convergence';

  override up(): void {
    this.addSql(`alter table "debate_turns" add column "position" jsonb null;`);
    this.addSql(
      `alter table "debates" add column "early_stop_threshold" double precision null,
        add column "compare_options" jsonb null;`,
    );
  }
}
