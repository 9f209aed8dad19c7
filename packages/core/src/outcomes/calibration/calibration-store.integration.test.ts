import type { DebateDomain } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestCore,
  insertStoredDebate,
  newUserCredentials,
  type TestCore,
  type TestDatabase,
} from '../../testing/index.ts';
import { refreshDueScores } from '../scores.ts';
import {
  type CalibrationSample,
  calibrate,
  fitGlobalCurve,
  fitOwnerCalibration,
} from './calibration-model.ts';
import { ownerCalibration } from './calibration-store.ts';
import { overconfident, seededRandom, simulateHistory } from './simulated-histories.ts';

describe.each<TestDatabase>(['postgres', 'pglite'])('stored calibration curves (%s)', (database) => {
  let test: TestCore;

  const newOwner = async (label: string) =>
    (await test.core.accounts.createUser(newUserCredentials(label))).id;
  /** Stores each sample as a resolved outcome of a completed debate of `ownerId`; returns the debates' ids. */
  const store = async (ownerId: string, samples: readonly CalibrationSample[]) => {
    const ids: string[] = [];
    for (const [i, s] of samples.entries()) {
      const id = await insertStoredDebate(test.core, { ownerId, question: `Decision ${i}?` });
      await test.core.db.execute(
        `insert into outcomes (debate_id, owner_id, status, confidence, recommendation, domain, recorded_at)
         values (?, ?, ?, ?, 'PROCEED', ?, ?)`,
        [id, ownerId, s.status, s.confidence, s.domain, s.resolvedAt],
      );
      ids.push(id);
    }
    return ids;
  };
  /** One pass of the score worker over `owners`' queued refreshes. */
  const refresh = async (...owners: string[]) => {
    for (const owner of owners)
      await test.core.db.execute('insert into score_queue (user_id) values (?)', [owner]);
    await refreshDueScores(test.core.db, 200);
  };
  const globalRow = async () =>
    (
      await test.core.db.execute<{ a: number; b: number; based_on: number; fitted_at: string }>(
        `select a, b, based_on, fitted_at::text from calibration_curves where scope = 'global'`,
      )
    )[0];
  const history = (seed: number, count: number, domains: DebateDomain[]) =>
    simulateHistory({ random: seededRandom(seed), count, reliability: overconfident, domains });

  let owner: string;
  let ownerHistory: CalibrationSample[];

  beforeAll(async () => {
    test = await createTestCore({}, { database });
    owner = await newOwner('owner');
    // 45 in business and 15 in legal (each a curve of its own), and 4 in health (too few: the owner's curve).
    ownerHistory = [
      ...history(1, 45, ['business']),
      ...history(2, 15, ['legal']),
      ...history(3, 4, ['health']),
    ];
    await store(owner, ownerHistory);
    await refresh(owner);
  }, 120_000);
  afterAll(async () => {
    await test?.cleanup();
  });

  it('stores what the model fits: the owner curve and one per domain with enough outcomes, with their counts', async () => {
    const global = await globalRow();
    // The first pass fitted the global curve on every resolved outcome there was (this owner's alone).
    expect(global?.based_on).toBe(ownerHistory.length);
    // Close, not equal: the fit sums in the order it reads the outcomes.
    const fitted = fitGlobalCurve(ownerHistory);
    expect(global?.a).toBeCloseTo(fitted.a, 10);
    expect(global?.b).toBeCloseTo(fitted.b, 10);
    const expected = fitOwnerCalibration(ownerHistory, { a: global?.a ?? 1, b: global?.b ?? 0 });
    const stored = await ownerCalibration(test.core.db.em(), owner);
    expect(stored?.model.basedOn).toEqual({ owner: 64, domains: { business: 45, legal: 15 } });
    expect(stored?.model.owner.a).toBeCloseTo(expected?.owner.a ?? Number.NaN, 10);
    expect(stored?.model.domains.business?.b).toBeCloseTo(expected?.domains.business?.b ?? Number.NaN, 10);
    expect(stored?.model.domains).not.toHaveProperty('health');
  });

  /** A verdict's 0.9 in `domain` against the owner's stored curves, as the engine calibrates one. */
  const calibratedFor = async (ownerId: string, domain: 'business' | 'health') =>
    calibrate((await ownerCalibration(test.core.db.em(), ownerId))?.model ?? null, 0.9, domain);

  it("applies the debate's domain curve where it has one, the owner's otherwise", async () => {
    const inBusiness = await calibratedFor(owner, 'business');
    const inHealth = await calibratedFor(owner, 'health');
    expect(inBusiness?.calibration).toEqual({ method: 'platt-shrinkage', basedOn: 45, scope: 'domain' });
    expect(inHealth?.calibration).toEqual({ method: 'platt-shrinkage', basedOn: 64, scope: 'owner' });
    // An overconfident judge's 0.9 is brought down.
    expect(inBusiness?.calibratedConfidence).toBeLessThan(0.85);
    expect(inHealth?.calibratedConfidence).toBeLessThan(0.9);
  });

  it('calibrates nothing for an owner under the minimum, and compares raw with calibrated for one above', async () => {
    const few = await newOwner('few');
    await store(few, history(4, 29, ['business']));
    await refresh(few);
    const em = test.core.db.em();
    expect(await ownerCalibration(em, few)).toBeNull();
    expect(await calibratedFor(few, 'business')).toBeNull();
    const none = await test.core.scores.calibrationComparison(few);
    expect(none.curve).toMatchObject({ applied: false, basedOn: 0, minimum: 30, domains: [] });
    expect(none.resolved).toBe(29);
    expect(none.raw.reduce((n, b) => n + b.count, 0)).toBe(29);
    expect(none.calibrated).toEqual([]);
    expect(none.brier.calibrated).toBeNull();

    const compared = await test.core.scores.calibrationComparison(owner);
    expect(compared.curve).toMatchObject({
      applied: true,
      basedOn: 64,
      domains: [
        { domain: 'business', basedOn: 45 },
        { domain: 'legal', basedOn: 15 },
      ],
    });
    expect(compared.raw.reduce((n, b) => n + b.count, 0)).toBe(64);
    expect(compared.calibrated.reduce((n, b) => n + b.count, 0)).toBe(64);
    // Overconfident: the raw buckets come true less often than they say; the calibrated ones closer to it.
    const top = compared.raw.at(-1);
    expect(top?.actualRate).toBeLessThan(top?.meanPredicted ?? 0);
    expect(compared.brier.calibrated).toBeLessThan(compared.brier.raw ?? 0);
  });

  it('refits the global curve once it is stale, not on every pass', async () => {
    const before = await globalRow();
    const other = await newOwner('other');
    await store(other, history(5, 10, ['personal']));
    await refresh(other);
    expect(await globalRow()).toEqual(before);
    await test.core.db.execute(
      `update calibration_curves set fitted_at = now() - interval '2 hours' where scope = 'global'`,
    );
    await refresh(other);
    expect((await globalRow())?.based_on).toBe(ownerHistory.length + 29 + 10);
  });
});
