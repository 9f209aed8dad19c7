import type { Verdict } from '@verdict/contracts';
import { CALIBRATION_RULES } from '@verdict/core';
import {
  createTestCore,
  debateReaching,
  eventually,
  insertPendingDebate,
  insertStoredDebate,
  newUserCredentials,
  type TestCore,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineNode } from '../node/engine-node.ts';
import { startTestEngine } from '../testing/index.ts';

/** The simulated classifier files this question under technology (providers/simulated.ts). */
const TECH = 'Should we migrate our database to a managed cloud service this year?';

describe('calibrated confidence: the score worker refits, the engine applies', () => {
  let test: TestCore;
  let engine: EngineNode;

  /** `count` resolved outcomes of `ownerId` in technology, said at 0.9, of which `correct` came true. */
  const history = async (ownerId: string, count: number, correct: number) => {
    for (let i = 0; i < count; i++) {
      const id = await insertStoredDebate(test.core, { ownerId, question: `Past decision ${i}?` });
      await test.core.db.execute(
        `insert into outcomes (debate_id, owner_id, status, confidence, recommendation, domain, recorded_at)
         values (?, ?, ?, 0.9, 'PROCEED', 'technology', now())`,
        [id, ownerId, i < correct ? 'correct' : 'wrong'],
      );
    }
    await test.core.db.execute('insert into score_queue (user_id) values (?)', [ownerId]);
  };
  const curves = (ownerId: string) =>
    test.core.db.execute<{ scope: string; domain: string | null; based_on: number }>(
      'select scope, domain, based_on from calibration_curves where owner_id = ? order by scope',
      [ownerId],
    );
  /**
   * A simulated debate of `ownerId` on TECH. Three rounds: its panel converges (the simulated judge then says
   * 0.86), a confident verdict for an overconfident owner's curve to lower; one round would split it (0.29).
   */
  const run = async (ownerId: string) => {
    const { id } = await insertPendingDebate(test.core, { ownerId, question: TECH, agents: 3, rounds: 3 });
    expect((await debateReaching(test.core, id))?.status).toBe('completed');
    const [row] = await test.core.db.execute<{ verdict: Verdict }>(
      'select verdict from debates where id = ?',
      [id],
    );
    const [event] = await test.core.db.execute<{ data: Record<string, unknown> }>(
      `select data from debate_events where debate_id = ? and type = 'verdict'`,
      [id],
    );
    return { verdict: row?.verdict as Verdict, event: event?.data ?? {} };
  };

  beforeAll(async () => {
    test = await createTestCore();
    engine = startTestEngine(test.core, { firstTokenMs: 1 }, 4);
  });
  afterAll(async () => {
    await engine.stop();
    await test.cleanup();
  });

  it('refits an overconfident owner when their outcomes arrive; their next verdict carries the lower calibrated confidence', async () => {
    const { id: ownerId } = await test.core.accounts.createUser(newUserCredentials('over'));
    await history(ownerId, 40, 10);
    await eventually(
      () => curves(ownerId),
      (rows) => rows.length === 2,
      10_000,
    );
    expect(await curves(ownerId)).toEqual([
      { scope: 'domain', domain: 'technology', based_on: 40 },
      { scope: 'owner', domain: null, based_on: 40 },
    ]);
    const [global] = await test.core.db.execute<{ n: number }>(
      `select count(*)::int as n from calibration_curves where scope = 'global'`,
    );
    expect(global?.n).toBe(1);

    const { verdict, event } = await run(ownerId);
    expect(verdict.calibration).toEqual({ method: 'platt-shrinkage', basedOn: 40, scope: 'domain' });
    expect(verdict.calibratedConfidence).toBeLessThan(verdict.confidence);
    // The stream's event carries what the verdict stores (both 0–1 here; the SSE layer scales them).
    expect(event).toMatchObject({
      confidence: verdict.confidence,
      calibratedConfidence: verdict.calibratedConfidence,
      calibration: verdict.calibration,
    });
  });

  it(`leaves a verdict uncalibrated below ${CALIBRATION_RULES.minimumForOwner} resolved outcomes, and takes the curves away when corrections bring an owner below it`, async () => {
    const { id: ownerId } = await test.core.accounts.createUser(newUserCredentials('few'));
    await history(ownerId, CALIBRATION_RULES.minimumForOwner, 5);
    await eventually(
      () => curves(ownerId),
      (rows) => rows.length === 2,
      10_000,
    );
    // One outcome told "too early" after all: it leaves the fit, and the owner is one short.
    await test.core.db.execute(
      `update outcomes set status = 'too_early' where debate_id = (select debate_id from outcomes where owner_id = ? limit 1)`,
      [ownerId],
    );
    await test.core.db.execute('insert into score_queue (user_id) values (?)', [ownerId]);
    await eventually(
      () => curves(ownerId),
      (rows) => rows.length === 0,
      10_000,
    );

    const { verdict, event } = await run(ownerId);
    expect(verdict).not.toHaveProperty('calibratedConfidence');
    expect(verdict).not.toHaveProperty('calibration');
    expect(event).not.toHaveProperty('calibratedConfidence');
  });
});
