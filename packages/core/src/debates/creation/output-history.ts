import { sql } from 'kysely';
import { query } from '../../db/kysely.ts';
import type { Database } from '../../db/orm.ts';
import {
  type CallTask,
  type DebateKind,
  kindFor,
  LEARNT_AT_LEAST,
  LEARNT_FROM_LAST,
  type LearntLengths,
  type LengthTable,
  learnLengths,
  lengthsKey,
  type OutputSample,
  PLAIN,
} from '../../routing/output-lengths.ts';
import { PROMPT_CHARS } from '../../routing/prompt-sizes.ts';
import type { Clock } from '../../shared/clock.ts';

/** A (model, task) whose output lengths an estimate needs, in the kind of debate it is for. */
export type WantedLengths = { model: string; task: CallTask; kind?: DebateKind };

/**
 * How long a process keeps what it learnt of a (model, task) before reading it again. Safe to serve a little
 * stale: the lengths are statistics over the last LEARNT_FROM_LAST calls, which the few calls stored in a
 * minute barely move, and they only shape an estimate's token and USD figures — never a charge, a refusal or
 * a credit, which the create decides from the mode's price. Every process converges within this time.
 */
export const LEARNT_LENGTHS_TTL_MS = 60_000;
/** (model, task) pairs a process remembers at most (models come from the provider table and its overrides). */
const MAX_REMEMBERED = 1_000;
/**
 * Calls read per (model, task): LEARNT_FROM_LAST of the kind of debate asked for while it is common, and a
 * bounded read when it is rare.
 */
const TURNS_READ = 2 * LEARNT_FROM_LAST;

type Kinded = { passages: boolean; comparison: boolean };
type TurnRow = Kinded & {
  model: string;
  rebuttal: boolean;
  output_tokens: number;
  quoted: number;
  cited: number;
};
type CallRow = Kinded & {
  model: string;
  kind: 'judge' | 'classifier';
  output_tokens: number;
  agents: number;
};
type Sample = OutputSample & { kind: DebateKind };

/** Whether a debate (`d`) offered its turns evidence passages: the evidence engine, and something to cite. */
const OFFERED_PASSAGES = sql<boolean>`(d.evidence_engine and (d.context is not null or exists (
  select 1 from attachments a where a.debate_id = d.id and a.status = 'ready')))`;

const isDebater = (task: CallTask) => task === 'opening' || task === 'rebuttal';

/**
 * This installation's recent calls, newest first, per (model, task): debaters' turns from `debate_turns`
 * (openings are round one's, rebuttals the later rounds'), the judge's and the classifier's calls from
 * `debate_calls`, each with the kind of its debate (offered passages, a comparison) and its panel, a turn
 * with its verified citations as the judge reads them (the quote, or a passage's first 200 characters, and
 * the line around it). Each (model, task) is one range of migration 0035's indexes; one statement per table.
 */
async function readSamples(db: Database, wanted: readonly WantedLengths[]) {
  const k = query(db.em());
  // Each (model, task) once, whatever kinds of debate are wanted of it: the kinds are told apart in memory.
  const pairs = [...new Map(wanted.map((w) => [lengthsKey(w.model, w.task), w])).values()];
  const turns = pairs.filter((w) => isDebater(w.task));
  const calls = pairs.filter((w) => !isDebater(w.task));
  const [turnRows, callRows] = await Promise.all([
    turns.length === 0
      ? []
      : sql<TurnRow>`
          select w.model, w.rebuttal, t.output_tokens, t.quoted, t.cited, t.passages, t.comparison
          from (values ${sql.join(turns.map((w) => sql`(${w.model}::text, ${w.task === 'rebuttal'}::boolean)`))})
            as w(model, rebuttal)
          cross join lateral (
            select dt.output_tokens, char_length(dt.content) as quoted,
              coalesce((select sum(coalesce(char_length(c->>'quote'), 200) + ${PROMPT_CHARS.judge.perCitation})
                from jsonb_array_elements(dt.citations) c where (c->>'verified')::boolean), 0) as cited,
              ${OFFERED_PASSAGES} as passages, d.compare_options is not null as comparison
            from debate_turns dt
            join debates d on d.id = dt.debate_id
            where dt.model = w.model and (dt.round > 1) = w.rebuttal
            order by dt.created_at desc
            limit ${TURNS_READ}
          ) t`
          .execute(k)
          .then((result) => result.rows),
    calls.length === 0
      ? []
      : sql<CallRow>`
          select w.model, w.kind, c.output_tokens, d.requested_agents as agents,
            ${OFFERED_PASSAGES} as passages, d.compare_options is not null as comparison
          from (values ${sql.join(calls.map((w) => sql`(${w.model}::text, ${w.task}::text)`))}) as w(model, kind)
          cross join lateral (
            select dc.output_tokens, dc.debate_id
            from debate_calls dc
            where dc.model = w.model and dc.kind = w.kind
            order by dc.created_at desc
            limit ${TURNS_READ}
          ) c
          join debates d on d.id = c.debate_id`
          .execute(k)
          .then((result) => result.rows),
  ]);
  const samples = new Map<string, Sample[]>();
  const add = (key: string, sample: Sample) => samples.set(key, [...(samples.get(key) ?? []), sample]);
  const kindOf = (row: Kinded): DebateKind => ({
    withPassages: row.passages === true,
    comparison: row.comparison === true,
  });
  for (const row of turnRows) {
    add(lengthsKey(row.model, row.rebuttal ? 'rebuttal' : 'opening'), {
      outputTokens: Number(row.output_tokens),
      quotedChars: Number(row.quoted),
      citedChars: Number(row.cited),
      agents: 0,
      kind: kindOf(row),
    });
  }
  for (const row of callRows) {
    add(lengthsKey(row.model, row.kind), {
      outputTokens: Number(row.output_tokens),
      quotedChars: 0,
      citedChars: 0,
      agents: Number(row.agents),
      kind: kindOf(row),
    });
  }
  return samples;
}

/**
 * What one wanted (model, task) learns from: its recent calls in debates of its kind, or all its recent calls
 * while that kind has too few (the classifier's are all of one kind).
 */
function samplesFor(w: WantedLengths, all: readonly Sample[]): Sample[] {
  const kind = kindFor(w.task, w.kind ?? PLAIN);
  if (w.task === 'classifier') return [...all];
  const alike = all.filter(
    (sample) => sample.kind.withPassages === kind.withPassages && sample.kind.comparison === kind.comparison,
  );
  return alike.length >= LEARNT_AT_LEAST ? alike : [...all];
}

/**
 * The learnt output lengths an estimate asks for, read from the database at most once per
 * LEARNT_LENGTHS_TTL_MS per (model, task) in this process; a (model, task) with too few recent calls gets
 * the default table's (output-lengths.ts).
 */
export function createOutputHistory(db: Database, clock: Clock, ttlMs = LEARNT_LENGTHS_TTL_MS) {
  const remembered = new Map<string, { at: number; lengths: LearntLengths }>();
  const keyOf = (w: WantedLengths) => lengthsKey(w.model, w.task, w.kind);
  return async (wanted: readonly WantedLengths[]): Promise<LengthTable> => {
    const now = clock.now();
    const table = new Map<string, LearntLengths>();
    const missing = new Map<string, WantedLengths>();
    for (const w of wanted) {
      const known = remembered.get(keyOf(w));
      if (known && now - known.at < ttlMs) table.set(keyOf(w), known.lengths);
      else missing.set(keyOf(w), w);
    }
    if (missing.size === 0) return table;
    const samples = await readSamples(db, [...missing.values()]);
    if (remembered.size + missing.size > MAX_REMEMBERED) remembered.clear();
    for (const [key, w] of missing) {
      const lengths = learnLengths(w.task, samplesFor(w, samples.get(lengthsKey(w.model, w.task)) ?? []));
      remembered.set(key, { at: now, lengths });
      table.set(key, lengths);
    }
    return table;
  };
}

export type OutputHistory = ReturnType<typeof createOutputHistory>;
