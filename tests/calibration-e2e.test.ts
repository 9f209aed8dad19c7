import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody } from './support/api-client.ts';
import { readSse } from './support/sse.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

/** Resolved outcomes from which an owner's verdicts are calibrated (core's CALIBRATION_RULES.minimumForOwner). */
const MINIMUM = 30;
/** Questions the simulated classifier files under technology: one domain, so it gets a curve of its own. */
const question = (i: number) => `Should team ${i} migrate its database to a managed cloud service?`;

// An overconfident judge, as its owner's outcomes show it: every verdict of a history told wrong. The next
// verdict carries a calibrated confidence below the judge's in every read, and the comparison route shows both.
describe.each(MODES)('calibrated confidence end to end (%s)', (mode) => {
  let stack: Stack;
  let user: ProUser;
  let keyed: ApiClient;

  const completed = (id: string) =>
    eventually(
      async () => expectBody(await user.client.GET('/api/debates/{id}', { params: { path: { id } } }), 200),
      (debate) => debate.status === 'completed',
      60_000,
    );
  const create = async (i: number) =>
    expectBody(
      await user.client.POST('/api/debates', {
        body: { question: question(i), mode: 'fast', skipCache: true },
      }),
      201,
    ).debateId;

  beforeAll(async () => {
    stack = await startStack(mode, 'calib');
    user = await signUpPro(stack, 'calib');
    await stack.setRateLimit(user.email, 5000);
    const created = expectBody(await user.client.POST('/api/keys', { body: { name: 'calib' } }), 201);
    keyed = apiClient(stack.baseUrl, { key: created.key });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("lowers the next verdict's confidence after a history of confident verdicts that went wrong", async () => {
    const before = expectBody(await user.client.GET('/api/scores/calibration'), 200);
    expect(before.curve).toMatchObject({ applied: false, minimum: MINIMUM, basedOn: 0 });

    // Ten at a time: an account runs at most 20 debates at once.
    for (let from = 0; from < MINIMUM; from += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, i) => create(from + i)));
      for (const id of batch) {
        const debate = await completed(id);
        // Uncalibrated while the owner has too few outcomes: the field is absent, not null.
        expect(debate.verdict).not.toHaveProperty('calibratedConfidence');
        expectBody(
          await user.client.POST('/api/debates/{id}/outcome', {
            params: { path: { id } },
            body: { outcomeStatus: 'wrong' },
          }),
          200,
        );
      }
    }
    const fitted = await eventually(
      async () => expectBody(await user.client.GET('/api/scores/calibration'), 200),
      (report) => report.curve.applied,
      30_000,
    );
    expect(fitted.curve).toMatchObject({
      applied: true,
      method: 'platt-shrinkage',
      basedOn: MINIMUM,
      domains: [{ domain: 'technology', basedOn: MINIMUM }],
    });

    const id = await create(MINIMUM);
    const stream = await readSse(`${stack.baseUrl}/api/debates/${id}/stream`, { cookie: user.cookie });
    const event = stream.messages.find((m) => m.event === 'verdict')?.data ?? {};
    const debate = await completed(id);
    const detail = expectBody(await keyed.GET('/v1/verdicts/{id}', { params: { path: { id } } }), 200);

    // The debate read: 0–1, with how it was made.
    const summary = debate.verdict;
    expect(summary?.calibration).toEqual({ method: 'platt-shrinkage', basedOn: MINIMUM, scope: 'domain' });
    expect(summary?.calibratedConfidence).toBeLessThan(summary?.confidence ?? 0);
    // /v1 and the stream: whole-number percent, as their confidence is, and the same figures.
    const percent = Math.round((summary?.calibratedConfidence ?? Number.NaN) * 100);
    expect(detail.verdict?.calibratedConfidence).toBe(percent);
    expect(detail.verdict?.calibratedConfidence).toBeLessThan(detail.verdict?.confidence ?? 0);
    expect(detail.verdict?.calibration).toEqual(summary?.calibration);
    expect(event).toMatchObject({
      confidence: detail.verdict?.confidence,
      calibratedConfidence: percent,
      calibration: summary?.calibration,
    });

    // Raw and calibrated side by side: the raw buckets came true less often than they said, and the
    // calibrated confidence scores better on the same outcomes.
    expect(fitted.resolved).toBe(MINIMUM);
    expect(fitted.raw.reduce((n, b) => n + b.count, 0)).toBe(MINIMUM);
    expect(fitted.calibrated.reduce((n, b) => n + b.count, 0)).toBe(MINIMUM);
    for (const bucket of fitted.raw) expect(bucket.actualRate).toBe(0);
    expect(fitted.brier.calibrated).toBeLessThan(fitted.brier.raw ?? 0);
  });
});
