import { randomUUID } from 'node:crypto';
import type { Citation } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  citedCharsAt,
  DEFAULT_LENGTHS,
  lengthsKey,
  outputTokensAt,
  quotedCharsAt,
} from '../../routing/output-lengths.ts';
import { PROMPT_CHARS } from '../../routing/prompt-sizes.ts';
import { createTestCore, type TestCore, type TestDatabase } from '../../testing/index.ts';
import { createOutputHistory, LEARNT_LENGTHS_TTL_MS } from './output-history.ts';

/**
 * The learnt output lengths read back from debate_turns and debate_calls rows as the engine stores them
 * (the columns it writes; here written directly, the engine being another package), on both databases.
 */
describe.each(['postgres', 'pglite'] as TestDatabase[])(
  'output lengths learnt from stored calls on %s',
  (database) => {
    let test: TestCore;
    let ownerId: string;
    let now = Date.parse('2026-11-20T12:00:00Z');
    const clock = { now: () => now };
    const rows = (text: string, params: unknown[] = []) => test.core.db.execute(text, params);
    /** Seconds before the clock's now, as a stored timestamp: older rows first. */
    const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

    type Kind = { evidence?: boolean; context?: string | null; options?: string[] | null };
    async function debate(agents: number, kind: Kind = {}): Promise<string> {
      const id = randomUUID();
      await rows(
        `insert into debates (id, owner_id, question, context, mode, status, funding_source, requested_agents,
           requested_rounds, evidence_engine, compare_options)
         values (?, ?, 'A question', ?, 'fast', 'completed', 'user_credits', ?, 2, ?, ?::jsonb)`,
        [
          id,
          ownerId,
          kind.context ?? null,
          agents,
          kind.evidence ?? false,
          kind.options ? JSON.stringify(kind.options) : null,
        ],
      );
      return id;
    }
    /** One debate's turns: `n` seats of one round, each `content` long, with `citations` as the engine checked them. */
    async function turns(
      model: string,
      round: number,
      n: number,
      outputTokens: number,
      content: number,
      at = 60,
      kind: Kind = {},
      citations: Citation[] | null = null,
    ) {
      const id = await debate(n, kind);
      for (let seat = 0; seat < n; seat++) {
        await rows(
          `insert into debate_turns (debate_id, attempt, round, agent, content, model, input_tokens, output_tokens,
             citations, created_at)
           values (?, 1, ?, ?, ?, ?, 500, ?, ?::jsonb, ?)`,
          [
            id,
            round,
            `Seat ${seat}`,
            'x'.repeat(content),
            model,
            outputTokens,
            citations ? JSON.stringify(citations) : null,
            ago(at),
          ],
        );
      }
    }
    async function call(model: string, kind: 'judge' | 'classifier', agents: number, outputTokens: number) {
      await rows(
        `insert into debate_calls (debate_id, attempt, seq, kind, model, input_tokens, output_tokens, cost_nano_usd, created_at)
       values (?, 1, 1, ?, ?, 900, ?, 0, ?)`,
        [await debate(agents), kind, model, outputTokens, ago(30)],
      );
    }

    beforeAll(async () => {
      test = await createTestCore({}, { database, clock });
      ownerId = (await test.core.accounts.createUser({ email: `${randomUUID()}@example.com`, name: 'T' })).id;
    }, 60_000);
    afterAll(async () => {
      await test?.cleanup();
    });

    it("learns each model's openings, rebuttals, verdicts and classifications, and defaults where there are too few", async () => {
      // 30 openings and 30 rebuttals of `a`, 10 openings of `b`: too few to learn from.
      for (let i = 0; i < 10; i++) await turns('p:a', 1, 3, 90 + i, 300 + 10 * i);
      for (let i = 0; i < 10; i++) await turns('p:a', 2, 3, 150, 560);
      await turns('p:b', 1, 10, 400, 1600);
      for (let agents = 2; agents <= 8; agents++)
        for (let i = 0; i < 4; i++) await call('p:judge', 'judge', agents, 200 + 50 * agents);
      for (let i = 0; i < 25; i++) await call('p:small', 'classifier', 3, 1 + (i % 2));

      const learnt = await createOutputHistory(
        test.core.db,
        clock,
      )([
        { model: 'p:a', task: 'opening' },
        { model: 'p:a', task: 'rebuttal' },
        { model: 'p:b', task: 'opening' },
        { model: 'p:judge', task: 'judge' },
        { model: 'p:small', task: 'classifier' },
      ]);
      const of = (model: string, task: Parameters<typeof lengthsKey>[1]) =>
        learnt.get(lengthsKey(model, task));
      const opening = of('p:a', 'opening');
      expect(opening?.samples).toBe(30);
      expect(outputTokensAt(opening ?? DEFAULT_LENGTHS.opening, 'opening', 3).expected).toBeCloseTo(94.5, 6);
      // 300 … 390 characters, three of each: the 10th and 90th percentile between the nearest ranks.
      expect(quotedCharsAt(opening ?? DEFAULT_LENGTHS.opening, 3)).toEqual({
        low: 309,
        expected: 345,
        high: 381,
      });
      expect(of('p:a', 'rebuttal')).toMatchObject({ samples: 30 });
      expect(quotedCharsAt(of('p:a', 'rebuttal') ?? DEFAULT_LENGTHS.rebuttal, 3).expected).toBe(560);
      expect(of('p:b', 'opening')).toBe(DEFAULT_LENGTHS.opening);
      // The verdicts' length by the panel each summed up, read from its debate.
      const judge = of('p:judge', 'judge') ?? DEFAULT_LENGTHS.judge;
      expect(judge.samples).toBe(28);
      expect(outputTokensAt(judge, 'judge', 4).expected).toBeCloseTo(400, 6);
      expect(
        outputTokensAt(of('p:small', 'classifier') ?? DEFAULT_LENGTHS.classifier, 'classifier', 3),
      ).toMatchObject({
        expected: 1.48,
      });
    });

    it('reads the newest 200 calls of a model and task, whatever is older', async () => {
      for (let i = 0; i < 10; i++) await turns('p:old', 1, 3, 2000, 8000, 3600);
      for (let i = 0; i < 25; i++) await turns('p:old', 1, 8, 100, 400, 10);
      const learnt = await createOutputHistory(test.core.db, clock)([{ model: 'p:old', task: 'opening' }]);
      const lengths = learnt.get(lengthsKey('p:old', 'opening'));
      expect(lengths?.samples).toBe(200);
      expect(lengths && outputTokensAt(lengths, 'opening', 3)).toEqual({
        low: 100,
        expected: 100,
        high: 100,
      });
    });

    it('learns turns offered passages, with the citations the judge will read, and comparisons apart while each kind has enough', async () => {
      const grounded = { evidence: true, context: 'Churn doubled after the price rise.' };
      const quote = 'churn doubled after the price rise';
      const citations: Citation[] = [
        { evidenceId: 'E1', quote, verified: true },
        { evidenceId: 'E1', quote: null, verified: true },
        { evidenceId: 'E2', quote: 'not in the passage', verified: false },
      ];
      for (let i = 0; i < 8; i++) await turns('p:kinds', 1, 3, 300, 1200, 60, grounded, citations);
      // The evidence engine on, but nothing to cite: a plain turn.
      for (let i = 0; i < 4; i++) await turns('p:kinds', 1, 3, 100, 400, 60, { evidence: true });
      for (let i = 0; i < 4; i++) await turns('p:kinds', 1, 3, 100, 400);
      for (let i = 0; i < 3; i++) await turns('p:kinds', 1, 3, 60, 200, 60, { options: ['A', 'B'] });
      const history = createOutputHistory(test.core.db, clock);
      const plain = { withPassages: false, comparison: false };
      const cited = { withPassages: true, comparison: false };
      const ranked = { withPassages: false, comparison: true };
      const learnt = await history([
        { model: 'p:kinds', task: 'opening', kind: plain },
        { model: 'p:kinds', task: 'opening', kind: cited },
        { model: 'p:kinds', task: 'opening', kind: ranked },
      ]);
      const of = (kind: typeof plain) =>
        learnt.get(lengthsKey('p:kinds', 'opening', kind)) ?? DEFAULT_LENGTHS.opening;
      expect(outputTokensAt(of(plain), 'opening', 3).expected).toBe(100);
      expect(outputTokensAt(of(cited), 'opening', 3).expected).toBe(300);
      // The verified citations as evidence lines: the quote, the passage's first 200 characters, each framed.
      const lines = quote.length + 200 + 2 * PROMPT_CHARS.judge.perCitation;
      expect(citedCharsAt(of(cited), 3)).toEqual({ low: lines, expected: lines, high: lines });
      expect(citedCharsAt(of(plain), 3).expected).toBe(0);
      // Nine comparison turns are too few: the comparison learns from all 57 of the model's openings.
      expect(of(ranked).samples).toBe(57);
    });

    it('answers from its cache for a minute, then reads what was stored since', async () => {
      const history = createOutputHistory(test.core.db, clock);
      const wanted = [{ model: 'p:fresh', task: 'opening' as const }];
      await turns('p:fresh', 1, 8, 50, 200);
      await turns('p:fresh', 1, 8, 50, 200);
      await turns('p:fresh', 1, 8, 50, 200);
      expect((await history(wanted)).get(lengthsKey('p:fresh', 'opening'))?.samples).toBe(24);
      await turns('p:fresh', 1, 8, 50, 200, 0);
      now += LEARNT_LENGTHS_TTL_MS - 1;
      expect((await history(wanted)).get(lengthsKey('p:fresh', 'opening'))?.samples).toBe(24);
      now += 1;
      expect((await history(wanted)).get(lengthsKey('p:fresh', 'opening'))?.samples).toBe(32);
    });

    it("shapes the estimate's expected answers and says what it learnt from", async () => {
      // With no provider key configured the panel is simulated: sonnet and haiku seated in turn, opus judging.
      for (let i = 0; i < 10; i++) await turns('simulated/sonnet', 1, 3, 120, 400);
      const estimate = await test.core.debates.estimate({
        ownerId,
        route: 'api',
        question: 'Should the estimate learn from this installation?',
        context: null,
        agents: 2,
        rounds: 1,
        preset: null,
        routing: null,
        compare: false,
        skipCache: true,
        providerKeys: null,
        idempotencyKey: null,
        fingerprint: null,
      });
      const sonnet = estimate.models.find((m) => m.model === 'simulated/sonnet');
      expect(sonnet?.outputTokens).toEqual({ low: 120, expected: 120, high: 120 });
      const haiku = estimate.models.find((m) => m.model === 'simulated/haiku' && m.roles.includes('debater'));
      expect(haiku?.outputTokens.expected).toBe(
        DEFAULT_LENGTHS.opening.outputTokens.base + DEFAULT_LENGTHS.classifier.outputTokens.base,
      );
      expect(estimate.note).toContain('simulated/sonnet opening: 30 calls');
      expect(estimate.note).toContain('10th and 90th percentile');
    });
  },
);
