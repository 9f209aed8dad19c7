import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { type CorpusPassage, PASSAGE_COLUMNS, toCorpusPassage } from './corpus-passage.ts';
import type { EvidenceTables } from './tables.ts';

/**
 * The passages of the debate with these numbers, in number order (numbers it does not have are left
 * out): what a citation of E<n> is checked against. Retired passages are there too: a citation of one made
 * before its attachment was deleted still names real words.
 */
export async function passagesByNumber(
  db: Database,
  debateId: string,
  numbers: readonly number[],
): Promise<CorpusPassage[]> {
  const wanted = [...new Set(numbers)].filter((n) => Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647);
  if (wanted.length === 0) return [];
  const rows = await query<EvidenceTables>(db.em())
    .selectFrom('evidence_passages')
    .select(PASSAGE_COLUMNS)
    .where('debate_id', '=', debateId)
    .where('number', 'in', wanted)
    .orderBy('number')
    .execute();
  return rows.map(toCorpusPassage);
}

/** The debate's whole corpus in number order, retired passages included (marked): the evidence read. */
export async function readCorpus(db: Database, debateId: string): Promise<CorpusPassage[]> {
  const rows = await query<EvidenceTables>(db.em())
    .selectFrom('evidence_passages')
    .select(PASSAGE_COLUMNS)
    .where('debate_id', '=', debateId)
    .orderBy('number')
    .execute();
  return rows.map(toCorpusPassage);
}
