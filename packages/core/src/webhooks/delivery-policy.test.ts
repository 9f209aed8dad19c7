import { describe, expect, it } from 'vitest';
import { nextStep } from './delivery-policy.ts';

const at = 1_000_000;

describe('nextStep', () => {
  it('ends a delivery on any 2xx answer', () => {
    for (const statusCode of [200, 201, 204, 299])
      expect(nextStep(1, { statusCode }, at)).toEqual({ status: 'succeeded' });
  });

  it('waits exactly 5 s, 30 s, then 5 min after the first three failures', () => {
    expect(nextStep(1, { statusCode: 500 }, at)).toEqual({ status: 'pending', dueAt: new Date(at + 5_000) });
    expect(nextStep(2, { statusCode: null }, at)).toEqual({
      status: 'pending',
      dueAt: new Date(at + 30_000),
    });
    expect(nextStep(3, { statusCode: 404 }, at)).toEqual({
      status: 'pending',
      dueAt: new Date(at + 300_000),
    });
  });

  it('gives up for good after the fourth failed attempt', () => {
    expect(nextStep(4, { statusCode: 500 }, at)).toEqual({ status: 'failed', deactivateWebhook: false });
  });

  it('treats a redirect as a failure, since redirects are never followed', () => {
    expect(nextStep(1, { statusCode: 302 }, at).status).toBe('pending');
  });

  it('gives up at once on 410 Gone and deactivates the webhook', () => {
    expect(nextStep(1, { statusCode: 410 }, at)).toEqual({ status: 'failed', deactivateWebhook: true });
  });
});
