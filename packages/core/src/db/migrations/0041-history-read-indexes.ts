import { Migration } from '@mikro-orm/migrations';

/**
 * What the reads of an account's whole history need once it holds 100,000 debates (BENCHMARKS.md, "The
 * history suite"): each a partial index of the undeleted debates, so a count or a walk past an offset reads
 * the index alone (an index-only scan) instead of every debate's row.
 *
 * - The owner's live debates by creation: the list's count and its page ids (debates/list-debates.ts), the
 *   streaks' count, days and milestones (outcomes/streaks.ts), search's date order.
 * - The owner's completed debates by completion, carrying what the analytics average (started_at,
 *   round_count, cost): the averages beside a debate's analytics (debates/debate-analytics.ts) and the
 *   list of completed debates by completion read this index alone.
 * - A workspace's live debates by creation: the workspace's list.
 * - The owner's live questions lower-cased, as text (not collated) for prefix ranges: the questions search
 *   suggests for a typed prefix (search/suggest-searches.ts), a range of the owner's entries.
 * - The owner's resolved outcomes by resolution: the history's page (outcomes/outcome-history.ts) walks it
 *   from the newest instead of sorting every resolved outcome.
 *
 * Built concurrently is not possible inside the migration's transaction; on a large table, build these by
 * hand with `create index concurrently` before deploying (the migration then finds them: `if not exists`).
 */
export class Migration0041HistoryReadIndexes extends Migration {
  override name = '0041-history-read-indexes';

  override up(): void {
    this.addSql(`create index if not exists "debates_owner_live_index"
      on "debates" ("owner_id", "created_at", "id") where "deleted_at" is null;`);
    this.addSql(`create index if not exists "debates_owner_completed_index"
      on "debates" ("owner_id", "completed_at", "id") include ("started_at", "round_count", "cost")
      where "status" = 'completed' and "deleted_at" is null;`);
    this.addSql(`create index if not exists "debates_workspace_live_index"
      on "debates" ("workspace_id", "created_at", "id") where "deleted_at" is null;`);
    this.addSql(`create index if not exists "debates_owner_question_prefix_index"
      on "debates" ("owner_id", lower("question") text_pattern_ops) where "deleted_at" is null;`);
    this.addSql(`create index if not exists "outcomes_owner_resolved_index"
      on "outcomes" ("owner_id", "recorded_at", "debate_id")
      where "status" in ('correct', 'partially_correct', 'wrong');`);
  }
}
