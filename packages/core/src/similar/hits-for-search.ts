import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import { hasSqlState, SQL_STATE } from '../db/sql-state.ts';
import { readAs } from '../replica/read-as.ts';
import { AppError } from '../shared/app-error.ts';
import { unitVector } from './embedder.ts';
import { type Lookup, lookUp, type SimilarLookups, type SimilarResources } from './similar-lookups.ts';

/**
 * Search's semantic hits: the caller's debates related to the text by the model's own measure
 * (`relatedAbove`), best first. None, at once, when every lookup slot is taken or the budget runs
 * out: search has its keyword results.
 */
export const hitsForSearch = (resources: SimilarResources, lookups: SimilarLookups) => {
  const { embedder } = resources;
  const { slots, limits, vectorStorage } = lookups;
  /**
   * Search's lookup, stopped by PostgreSQL when it outlasts `deadline` (search's budget). The storage is
   * known before the transaction: finding it out uses a connection of its own (PGlite has only one).
   */
  const lookUpBy = async (deadline: number, lookup: Lookup) => {
    const storage = await vectorStorage();
    return readAs(resources, lookup.userId, (db) =>
      db.em().transactional(async (em) => {
        const timeout = String(Math.max(1, Math.ceil(deadline - Date.now())));
        await sql`select set_config('statement_timeout', ${timeout}, true)`.execute(query(em));
        return lookUp(em, storage, lookup);
      }),
    );
  };
  return async (userId: string, text: string, limit: number) => {
    if (!embedder || slots.active >= limits.atOnce) return [];
    const deadline = Date.now() + limits.searchBudgetMs;
    const signal = AbortSignal.timeout(limits.searchBudgetMs);
    try {
      const vector = unitVector(await embedder.embed(text, signal));
      const rows = await slots.run('search', () =>
        lookUpBy(deadline, { model: embedder.model, userId, vector, limit }),
      );
      return rows.filter((row) => Number(row.similarity) > embedder.relatedAbove);
    } catch (error) {
      // Out of budget, or every slot was taken while the text was being embedded.
      if (signal.aborted || hasSqlState(error, SQL_STATE.queryCanceled)) return [];
      if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') return [];
      throw error;
    }
  };
};
