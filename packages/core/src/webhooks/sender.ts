import type { Agent } from 'undici';
import { untilAborted } from '../net/deadline.ts';
import { refusalOfUrl, type SsrfPolicy, ssrfGuardedAgent } from '../net/ssrf-guard.ts';
import { undici } from '../net/undici.ts';
import { type AttemptResult, DELIVERY_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from './delivery-policy.ts';
import { deliveryHeaders } from './signing.ts';
import { storedText } from './stored-text.ts';

/** One delivery as the sender needs it. */
export type OutgoingDelivery = { deliveryId: string; url: string; secret: string; body: string };

export type WebhookSender = {
  send: (delivery: OutgoingDelivery) => Promise<AttemptResult>;
  close: () => Promise<void>;
};

/**
 * Sends deliveries through the SSRF guard (net/ssrf-guard.ts): every connection is checked when it is made,
 * redirects are not followed (a 3xx is a failed attempt), and each attempt has DELIVERY_TIMEOUT_MS in all.
 * Never throws: whatever happens is the attempt's result.
 */
export function createWebhookSender(
  policy: SsrfPolicy,
  options: { now: () => number; timeoutMs?: number },
): WebhookSender {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  // Made by the first delivery: a process that sends none never loads the HTTP client (net/undici.ts).
  let agent: Agent | undefined;
  return {
    send: async (delivery) => {
      const startedAt = new Date(options.now());
      const began = performance.now();
      const elapsed = () => Math.round(performance.now() - began);
      const refusal = refusalOfUrl(delivery.url, policy);
      if (refusal) return failed(startedAt, 0, `refused: ${refusal}`);
      try {
        agent ??= ssrfGuardedAgent(policy, { connectTimeoutMs: timeoutMs });
        const deadline = AbortSignal.timeout(timeoutMs);
        const answer = await untilAborted(
          undici().request(delivery.url, {
            method: 'POST',
            body: delivery.body,
            headers: deliveryHeaders(delivery.secret, delivery.deliveryId, delivery.body, startedAt),
            dispatcher: agent,
            signal: deadline,
          }),
          deadline,
        );
        return {
          startedAt,
          statusCode: answer.statusCode,
          responseExcerpt: await excerptOf(answer.body),
          durationMs: elapsed(),
          error: null,
        };
      } catch (error) {
        return failed(startedAt, elapsed(), describe(error));
      }
    },
    close: async () => agent?.close(),
  };
}

/** The attempt's `error` column is a varchar(500). */
const ERROR_BYTES = 500;

const failed = (startedAt: Date, durationMs: number, error: string): AttemptResult => ({
  startedAt,
  durationMs,
  statusCode: null,
  responseExcerpt: null,
  error: storedText(error, ERROR_BYTES),
});

/**
 * The first RESPONSE_EXCERPT_BYTES of an answer, as text the history can store (stored-text.ts: no NUL, valid
 * UTF-8, whole characters); the rest is not read (breaking off closes the stream).
 */
async function excerptOf(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) break;
    }
  } catch {
    // An answer cut off while its body streams still has its status: keep what arrived.
  }
  return storedText(Buffer.concat(chunks), RESPONSE_EXCERPT_BYTES);
}

/** A short reason for the history, without stack or internals: the error's name and the gist of its message. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'request failed';
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
  const cause = error.cause instanceof Error ? error.cause : null;
  const root = cause?.name === 'SsrfRefusedError' ? cause : error;
  if (root.name === 'SsrfRefusedError') return root.message;
  const code = (root as { code?: unknown }).code ?? (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? `${code}: ${root.message}` : root.message;
}
