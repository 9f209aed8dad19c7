import { describe, expect, it } from 'vitest';
import { createWebhookSender } from './sender.ts';

describe('a webhook attempt', () => {
  it('ends within its timeout, as a failed attempt, when the receiver’s host name never resolves', async () => {
    const sender = createWebhookSender(
      { allowHttp: true, allowPrivate: false, resolve: () => new Promise<string[]>(() => {}) },
      { now: Date.now, timeoutMs: 300 },
    );
    const started = performance.now();
    try {
      const result = await Promise.race([
        sender.send({
          deliveryId: '00000000-0000-4000-8000-000000000001',
          url: 'http://dns-never-answers.example/hook',
          secret: 'whsec_test',
          body: '{}',
        }),
        new Promise<string>((resolve) => setTimeout(() => resolve('no outcome within 3 s'), 3000)),
      ]);
      expect(result).toMatchObject({ statusCode: null, responseExcerpt: null });
      expect(typeof result === 'string' ? result : result.error).toMatch(/timed out|not resolved/);
      expect(performance.now() - started).toBeLessThan(1500);
    } finally {
      await Promise.race([sender.close(), new Promise((resolve) => setTimeout(resolve, 1000))]);
    }
  });
});
