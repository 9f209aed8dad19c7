import type { Verdict } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { WebhookTables } from '../webhooks/tables.ts';
import { debateEmbeddingText, type Embedder, unitVector } from './embedder.ts';
import type { SimilarTables } from './tables.ts';

type Tables = WebhookTables & DebateTables & SimilarTables;

export type EmbedPass = { embedded: number; failed: number };

/**
 * One pass of the embedding worker: claims debate.completed rows of the outbox not yet embedded (`skip
 * locked`, so nodes passing together take different rows), embeds each debate once and stamps the row in
 * the same transaction. A debate deleted meanwhile is stamped with nothing stored. A row whose embedding
 * fails stays unstamped and is tried again next pass, after the others; `onFailure` hears of it.
 */
export async function embedCompletedDebates(
  db: Database,
  embedder: Embedder,
  batch: number,
  onFailure: (error: unknown, debateId: string) => void = () => {},
): Promise<EmbedPass> {
  return db.em().transactional(async (em) => {
    const k = query<Tables>(em);
    const due = await k
      .selectFrom('webhook_outbox as o')
      .leftJoin('debates as d', 'd.id', 'o.debate_id')
      .select(['o.id', 'o.debate_id', 'd.owner_id', 'd.question', 'd.context', 'd.verdict', 'd.deleted_at'])
      .where('o.event', '=', 'debate.completed')
      .where('o.embedded_at', 'is', null)
      .orderBy('o.created_at')
      .limit(batch)
      .forUpdate('o')
      .skipLocked()
      .execute();
    const pass: EmbedPass = { embedded: 0, failed: 0 };
    for (const row of due) {
      if (row.debate_id && row.owner_id && row.question && !row.deleted_at) {
        try {
          const vector = unitVector(
            await embedder.embed(
              debateEmbeddingText({
                question: row.question,
                context: row.context ?? null,
                oneLiner: (row.verdict as Verdict | null)?.oneLiner ?? null,
              }),
            ),
          );
          await k
            .insertInto('debate_embeddings')
            .values({
              debate_id: row.debate_id,
              owner_id: row.owner_id,
              model: embedder.model,
              embedding: sql<number[]>`${`{${vector.join(',')}}`}::real[]`,
            })
            .onConflict((oc) => oc.column('debate_id').doNothing())
            .execute();
          pass.embedded++;
        } catch (error) {
          pass.failed++;
          onFailure(error, row.debate_id);
          continue;
        }
      }
      await k
        .updateTable('webhook_outbox')
        .set({ embedded_at: sql`now()` })
        .where('id', '=', row.id)
        .execute();
    }
    return pass;
  });
}
