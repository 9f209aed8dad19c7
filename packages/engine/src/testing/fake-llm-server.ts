import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '@verdict/core';
import { writeJson } from './fake-llm-bodies.ts';
import { handleExchange } from './fake-llm-exchange.ts';
import type {
  FakeLlmServer,
  FakeReply,
  FakeRequest,
  FakeRequestRecord,
  FakeScript,
} from './fake-llm-types.ts';

/**
 * A local stand-in for three LLM wire protocols, good enough for the official SDKs pointed at it through
 * their base-URL options: Anthropic Messages, OpenAI Chat Completions (also what OpenRouter and Ollama
 * speak) and Google Gemini generateContent / streamGenerateContent. Listens on 127.0.0.1, port 0.
 * Anthropic's citations too: a request with citable documents is answered with cited text blocks first
 * (fake-anthropic-citations.ts).
 *
 * Test-only: it never validates keys, and it records request bodies (and the key each request carried,
 * so a test can make a 401 echo it and check the adapter does not).
 */

export { FAKE_EMBEDDING_DIMENSIONS, fakeEmbedding } from './fake-llm-embeddings.ts';
export type {
  FakeLlmServer,
  FakeOutcome,
  FakeProtocol,
  FakeReply,
  FakeRequest,
  FakeRequestRecord,
  FakeScript,
} from './fake-llm-types.ts';

export const DEFAULT_FAKE_REPLY_TEXT = 'The fake model agrees with itself.';

export async function startFakeLlmServer(
  script: FakeScript = [{ text: DEFAULT_FAKE_REPLY_TEXT }],
  options: { host?: string; clock?: Clock } = {},
): Promise<FakeLlmServer> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  let current = script;
  let queuePosition = 0;
  const requests: FakeRequestRecord[] = [];

  const nextReply = async (request: FakeRequest): Promise<FakeReply> => {
    if (typeof current === 'function') return current(request);
    const reply = current[Math.min(queuePosition, current.length - 1)];
    queuePosition += 1;
    return reply ?? { text: DEFAULT_FAKE_REPLY_TEXT };
  };

  const server = createServer((req, res) => {
    handleExchange({ requests, clock, nextReply }, req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        writeJson(res, 500, { error: { message: `fake server failure: ${String(error)}` } });
      } else res.destroy();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  return {
    url,
    baseUrls: { anthropic: url, openai: `${url}/v1`, google: url },
    requests,
    count: (protocol) =>
      protocol ? requests.filter((r) => r.protocol === protocol).length : requests.length,
    setScript: (next) => {
      current = next;
      queuePosition = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
