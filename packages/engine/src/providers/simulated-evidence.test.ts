import { citationsInText, quoteOffsetIn } from '@verdict/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTurn } from '../machine/position.ts';
import { promptWithDocuments } from './documents.ts';
import type { EvidenceDocument, LlmRequest, SimulationHints } from './port.ts';
import { simulatedProvider } from './simulated.ts';

/** The simulated debater citing the passages it is given (the rule: simulated-evidence.ts). */

const HINTS: SimulationHints = {
  question: 'Should we hire two engineers this quarter?',
  agent: 'Skeptic',
  role: 'skeptic',
  stance: 'against',
  round: 1,
  opponents: [],
  injected: [],
};

const request = (documents: readonly EvidenceDocument[] | undefined, hints = HINTS): LlmRequest => ({
  task: 'debater',
  model: 'simulated/sonnet',
  system: 'You are Skeptic, the skeptic on a panel debating a decision.',
  prompt: `Question: ${hints.question}`,
  maxTokens: 400,
  json: false,
  signal: new AbortController().signal,
  ...(documents ? { documents } : {}),
  hints,
});

const speak = async (documents: readonly EvidenceDocument[] | undefined, hints = HINTS) =>
  readTurn((await simulatedProvider().complete(request(documents, hints))).text);

/** A turn's quoted citations, each with whether the engine's own check finds the quote in its passage. */
function quotesOf(content: string, documents: readonly EvidenceDocument[]) {
  return citationsInText(content).flatMap(({ evidenceId, quote }) => {
    if (quote === null) return [];
    const passage = documents.find((d) => d.evidenceId === evidenceId);
    return [{ evidenceId, quote, passage, holds: !!passage && quoteOffsetIn(passage.text, quote) !== null }];
  });
}

const wordsIn = (text: string) => text.split(/\s+/).filter(Boolean).length;

const HIRING: EvidenceDocument = {
  evidenceId: 'E2',
  title: 'hiring-report.pdf',
  text: 'Hiring two engineers costs about three hundred thousand dollars a year including benefits and equipment.',
};
const RAMP: EvidenceDocument = {
  evidenceId: 'E3',
  title: 'hiring-report.pdf',
  text: 'Contractors ramp up in two weeks on average, while new employees need three months to be productive.',
};

describe('the simulated debater with passages', () => {
  it('quotes one passage right, word for word, and one wrong, under the ids it was given', async () => {
    const documents = [HIRING, RAMP];
    const { content, position } = await speak(documents);
    expect(content.startsWith('[simulated] Skeptic (skeptic):')).toBe(true);
    expect(position?.recommendation).toBeDefined();
    const quotes = quotesOf(content, documents);
    expect(quotes).toHaveLength(2);
    const [right, wrong] = quotes;
    expect(right?.holds).toBe(true);
    expect(right?.passage?.text).toContain(right?.quote);
    expect(wordsIn(right?.quote ?? '')).toBeGreaterThanOrEqual(6);
    expect(wordsIn(right?.quote ?? '')).toBeLessThanOrEqual(12);
    expect(wrong?.holds).toBe(false);
    // Wrong by one changed word: the rest of it is the passage's.
    const kept = (wrong?.quote ?? '').split(' ').filter((word) => wrong?.passage?.text.includes(word));
    expect(kept.length).toBe(wordsIn(wrong?.quote ?? '') - 1);
    for (const { evidenceId } of citationsInText(content)) expect(['E2', 'E3']).toContain(evidenceId);
  });

  it('says the same thing for the same turn and passages, and quotes differently across turns', async () => {
    const documents = [HIRING, RAMP];
    expect((await speak(documents)).content).toBe((await speak(documents)).content);
    const turns = ['Advocate', 'Skeptic', 'Risk Analyst'].flatMap((agent) =>
      [1, 2, 3].map((round) => speak(documents, { ...HINTS, agent, round })),
    );
    const rightQuotes = (await Promise.all(turns)).map(
      ({ content }) => quotesOf(content, documents).find((q) => q.holds)?.quote,
    );
    expect(new Set(rightQuotes).size).toBeGreaterThan(3);
  });

  it('quotes a short passage whole, and cites bare a passage it cannot quote', async () => {
    const short = { evidenceId: 'E9', title: 'memo', text: 'Budget frozen.' };
    const shortQuotes = quotesOf((await speak([short])).content, [short]);
    expect(shortQuotes.map((q) => [q.quote, q.holds])).toEqual([
      ['Budget frozen', true],
      [expect.not.stringMatching(/^Budget frozen$/), false],
    ]);
    const unquotable = { evidenceId: 'E4', title: 'table', text: '"…" [ ] "…"' };
    const { content } = await speak([unquotable]);
    expect(citationsInText(content)).toEqual([{ evidenceId: 'E4', quote: null }]);
  });

  it('is the turn it always was without passages', async () => {
    const without = await simulatedProvider().complete(request(undefined));
    const none = await simulatedProvider().complete(request([]));
    expect(none.text).toBe(without.text);
    expect(without.text).not.toMatch(/\[E\d/);
  });

  it('counts the passages in its input tokens as a provider reading them in the prompt would be sent them', async () => {
    const asked = request([HIRING, RAMP]);
    const response = await simulatedProvider().complete(asked);
    expect(response.inputTokens).toBe(
      Math.ceil((asked.system.length + promptWithDocuments(asked).length) / 4),
    );
    expect(response.inputTokens).toBeGreaterThan(
      (await simulatedProvider().complete(request(undefined))).inputTokens + 40,
    );
  });
});

/** Passage texts of every kind a corpus holds: plain prose, lines, quotes, tags, ellipses, dashes, stand-ins. */
const WORD = fc.constantFrom(
  'churn',
  'Revenue',
  'grew',
  '4%',
  'in',
  'March.',
  'the',
  'pilot',
  '(notes)',
  'cost',
  '12,000',
  'euros;',
  'never',
  'rarely',
  'tripled',
  'halved',
  'nobody',
  'seldom',
  'vanished',
  'quadrupled',
  'İstanbul',
  'naïve',
  '"quoted"',
  '\u201ccurly\u201d',
  '[E5]',
  '...',
  '…',
  '—',
  '-',
  'etc...',
  'Q3:',
  '\n',
  '\n\n',
);
const PASSAGE = fc.array(WORD, { minLength: 1, maxLength: 60 }).map((words) => words.join(' '));
const PLAIN = fc
  .array(fc.constantFrom('we', 'ship', 'a', 'pilot', 'first', 'costs', 'fell', 'by', 'half'), {
    minLength: 1,
    maxLength: 30,
  })
  .map((words) => words.join(' '));

const DOCUMENTS = fc
  .tuple(
    PLAIN,
    fc.array(PASSAGE, { maxLength: 4 }),
    fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { minLength: 5, maxLength: 5 }),
    fc.constantFrom('report.pdf', 'a "quoted" [E7] title', 'Context'),
  )
  .chain(([plain, others, ids, title]) =>
    fc
      .shuffledSubarray([plain, ...others], { minLength: 1 + others.length })
      .map((texts) => texts.map((text, i): EvidenceDocument => ({ evidenceId: `E${ids[i]}`, title, text }))),
  );

const TURN_HINTS = fc.record({
  question: fc.constantFrom('Should we ship?', 'Is [E42] right about "churn"?', 'Move to Lisbon?'),
  agent: fc.constantFrom('Advocate', 'Skeptic', 'Risk Analyst', 'Domain Expert 2'),
  round: fc.integer({ min: 1, max: 4 }),
  injected: fc.constantFrom<string[]>([], ['See [E77] too.']),
});

describe('the simulated debater over many turns with passages', () => {
  it('never cites an id it was not given, and every turn holds a right quote and a wrong one', async () => {
    const met = { twoPassages: 0, onePassageOfSeveral: 0, bare: 0 };
    await fc.assert(
      fc.asyncProperty(DOCUMENTS, TURN_HINTS, async (documents, h) => {
        const hints: SimulationHints = {
          ...HINTS,
          ...h,
          opponents: h.round > 1 ? ['Advocate'] : [],
        };
        const { content, position } = await speak(documents, hints);
        expect(position).not.toBeNull();
        const given = new Set(documents.map((d) => d.evidenceId));
        const cited = citationsInText(content);
        for (const { evidenceId } of cited) expect(given.has(evidenceId)).toBe(true);
        const passages = new Set(cited.map((c) => c.evidenceId));
        expect(passages.size).toBeGreaterThanOrEqual(1);
        expect(passages.size).toBeLessThanOrEqual(2);
        const quotes = quotesOf(content, documents);
        const right = quotes.filter((q) => q.holds);
        expect(right.length).toBeGreaterThanOrEqual(1);
        expect(quotes.some((q) => !q.holds)).toBe(true);
        for (const q of right) {
          // Verbatim, 6–12 words, fewer only when the passage has no longer run on one line to cut from.
          expect(q.passage?.text).toContain(q.quote);
          expect(wordsIn(q.quote)).toBeLessThanOrEqual(12);
          const plainRun = /^[a-z ]+$/.test(q.passage?.text ?? '') ? wordsIn(q.passage?.text ?? '') : 0;
          if (plainRun >= 6) expect(wordsIn(q.quote)).toBeGreaterThanOrEqual(6);
        }
        met.twoPassages += passages.size === 2 ? 1 : 0;
        met.onePassageOfSeveral += passages.size === 1 && documents.length > 1 ? 1 : 0;
        met.bare += cited.some((c) => c.quote === null) ? 1 : 0;
      }),
      { numRuns: 400 },
    );
    for (const count of Object.values(met)) expect(count).toBeGreaterThan(0);
  });
});
