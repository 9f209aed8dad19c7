import { eventually } from '@verdict/core/testing';
import { Effect } from 'effect';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callLlm, type ProviderFailure } from '../runner/llm-call.ts';
import { type FakeLlmServer, type FakeProtocol, startFakeLlmServer } from '../testing/fake-llm-server.ts';
import { anthropicProvider } from './anthropic.ts';
import { googleProvider } from './google.ts';
import { openAiProvider } from './openai.ts';
import { LlmCallError, type LlmProvider, type LlmRequest } from './port.ts';

/** Each adapter through its real SDK against the local fake server; no network, no SDK retries. */

const KEYS: Record<FakeProtocol, string> = {
  anthropic: 'sk-ant-api03-TESTKEYanthropic0123456789',
  openai: 'sk-proj-TESTKEYopenai0123456789',
  google: 'AIzaTESTKEYgoogle0123456789abcdef',
};

const ADAPTERS: {
  protocol: FakeProtocol;
  model: string;
  make: (fake: FakeLlmServer) => LlmProvider;
  /** What a JSON request's body says to ask for JSON: Anthropic's API has no JSON mode, only the prompt. */
  asksForJson: string;
}[] = [
  {
    protocol: 'anthropic',
    model: 'claude-sonnet-5-5',
    asksForJson: '"system":"You are a careful debater."',
    make: (fake) => anthropicProvider({ apiKey: KEYS.anthropic, baseURL: fake.baseUrls.anthropic }),
  },
  {
    protocol: 'openai',
    model: 'gpt-6.1-terra',
    asksForJson: '"response_format":{"type":"json_object"}',
    make: (fake) => openAiProvider({ apiKey: KEYS.openai, baseURL: fake.baseUrls.openai }),
  },
  {
    protocol: 'google',
    model: 'gemini-flash-latest',
    asksForJson: '"responseMimeType":"application/json"',
    make: (fake) => googleProvider({ apiKey: KEYS.google, baseUrl: fake.baseUrls.google }),
  },
];

const TEXT = 'Ship it, but start with a two-week pilot.';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setScript([{ text: TEXT }]);
});

function request(model: string, overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    task: 'debater',
    model,
    system: 'You are a careful debater.',
    prompt: 'Should we ship?',
    maxTokens: 200,
    json: false,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<LlmCallError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmCallError);
  return error as LlmCallError;
}

describe.each(ADAPTERS)('$protocol adapter', ({ protocol, model, make, asksForJson }) => {
  let provider: LlmProvider;
  beforeAll(() => {
    provider = make(fake);
  });

  it('answers with the text, the model and the token counts', async () => {
    fake.setScript([{ text: TEXT, inputTokens: 42, outputTokens: 9 }]);
    const response = await provider.complete(request(model));
    expect(response).toEqual({ text: TEXT, model, inputTokens: 42, outputTokens: 9 });
    expect(fake.count(protocol)).toBe(1);
    expect(fake.requests[0]?.stream).toBe(true);
    expect(fake.requests[0]?.model).toBe(model);
    expect(JSON.stringify(fake.requests[0]?.body)).toContain('Should we ship?');
    expect(JSON.stringify(fake.requests[0]?.body)).toContain('You are a careful debater.');
  });

  it('joins the deltas of a streamed answer into its text', async () => {
    const chunks = ['Ship it', ', but start', ' with a two-week', ' pilot.'];
    fake.setScript([{ text: chunks.join(''), chunks }]);
    const response = await provider.complete(request(model));
    expect(response.text).toBe('Ship it, but start with a two-week pilot.');
  });

  it('asks for JSON where the API supports it', async () => {
    await provider.complete(request(model, { json: true }));
    expect(fake.requests).toHaveLength(1);
    expect(JSON.stringify(fake.requests[0]?.body)).toContain(asksForJson);
  });

  it('classifies 429 as rate_limited, without an SDK retry', async () => {
    fake.setScript([{ status: 429, retryAfterSeconds: 0 }, { text: TEXT }]);
    const error = await failureOf(provider.complete(request(model)));
    expect(error.kind).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(fake.count(protocol)).toBe(1);
  });

  it('classifies 500 as server, without an SDK retry', async () => {
    fake.setScript([{ status: 500 }, { text: TEXT }]);
    const error = await failureOf(provider.complete(request(model)));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(500);
    expect(fake.count(protocol)).toBe(1);
  });

  it('classifies 400 as client (not retryable)', async () => {
    fake.setScript([{ status: 400, message: 'max_tokens too large' }]);
    const error = await failureOf(provider.complete(request(model)));
    expect(error.kind).toBe('client');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('max_tokens too large');
  });

  it('keeps the key out of the message when a 401 echoes it', async () => {
    fake.setScript((req) => ({ status: 401, message: `Incorrect API key provided: ${req.apiKey}` }));
    const error = await failureOf(provider.complete(request(model)));
    expect(fake.requests[0]?.apiKey).toBe(KEYS[protocol]);
    expect(error.kind).toBe('client');
    expect(error.message).not.toContain(KEYS[protocol]);
    expect(error.message).toContain('[redacted]');
    expect(JSON.stringify(error)).not.toContain(KEYS[protocol]);
    expect(String(error.stack)).not.toContain(KEYS[protocol]);
    expect(error.cause).toBeUndefined();
  });

  it('classifies a connection cut mid-answer as server', async () => {
    fake.setScript([{ text: TEXT, resetAfterChunks: 2 }]);
    const error = await failureOf(provider.complete(request(model)));
    expect(error.kind).toBe('server');
    expect(error.retryable).toBe(true);
  });

  it('aborts a stalled call: aborted, and the server sees the connection close', async () => {
    fake.setScript([{ stall: true }]);
    const controller = new AbortController();
    const pending = provider.complete(request(model, { signal: controller.signal }));
    await eventually(
      () => fake.count(protocol),
      (n) => n === 1,
      2_000,
    );
    controller.abort();
    const error = await failureOf(pending);
    expect(error.kind).toBe('aborted');
    expect(await fake.requests[0]?.settled).toBe('client_closed');
  });

  it('aborts mid-stream: the partial answer is not returned as complete', async () => {
    fake.setScript([{ text: 'one two three four five', stallAfterChunks: 2 }]);
    const controller = new AbortController();
    const pending = provider.complete(request(model, { signal: controller.signal }));
    // Two chunks are out and the server holds the rest back: the abort lands mid-answer.
    await eventually(async () => fake.requests[0], Boolean);
    await fake.requests[0]?.stalled;
    controller.abort();
    const error = await failureOf(pending);
    expect(error.kind).toBe('aborted');
    expect(await fake.requests[0]?.settled).toBe('client_closed');
  });

  it('times out a stalled call through callLlm and closes the connection', async () => {
    fake.setScript([{ stall: true }]);
    const failure: ProviderFailure = await Effect.runPromise(
      Effect.flip(callLlm(provider, request(model), { timeoutMs: 100, retries: 0, backoffMs: 1 })),
    );
    expect(failure.kind).toBe('timeout');
    expect(await fake.requests[0]?.settled).toBe('client_closed');
  });

  it('lets callLlm retry a 429 through the adapter (two requests)', async () => {
    fake.setScript([{ status: 429, retryAfterSeconds: 0 }, { text: TEXT }]);
    const response = await Effect.runPromise(
      callLlm(provider, request(model), { timeoutMs: 2_000, retries: 3, backoffMs: 1 }),
    );
    expect(response.text).toBe(TEXT);
    expect(fake.count(protocol)).toBe(2);
  });
});

describe('OpenAI-compatible providers through the openai adapter', () => {
  it('reports its own name and sends max_tokens rather than max_completion_tokens', async () => {
    const provider = openAiProvider({ name: 'ollama', apiKey: 'ollama', baseURL: fake.baseUrls.openai });
    expect(provider.name).toBe('ollama');
    const response = await provider.complete(request('qwen3:8b'));
    expect(response.text).toBe(TEXT);
    const body = fake.requests[0]?.body as Record<string, unknown>;
    expect(body.max_tokens).toBe(200);
    expect(body.max_completion_tokens).toBeUndefined();
  });

  it('reports a refused connection as timeout (retryable)', async () => {
    const closed = await startFakeLlmServer();
    const url = closed.baseUrls.openai;
    await closed.close();
    const provider = openAiProvider({ name: 'openrouter', apiKey: 'sk-or-v1-abcdefgh', baseURL: url });
    const error = await failureOf(provider.complete(request('x')));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/^openrouter: /);
  });
});
