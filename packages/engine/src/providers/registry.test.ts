import { planDebate } from '@verdict/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm-server.ts';
import { LlmCallError, type LlmRequest } from './port.ts';
import { createProviders, dispatchingProvider, parseModelId } from './registry.ts';

const KEYS = {
  anthropic: 'sk-ant-api03-REGISTRYkey-abcdefghijkl',
  openai: 'sk-proj-REGISTRYkey-abcdefghijkl',
  google: 'AIzaREGISTRYkey-abcdefghijkl',
  openrouter: 'sk-or-v1-REGISTRYkey-abcdefghijkl',
  ollama: 'local-placeholder-key-123',
};

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setScript([{ text: 'ok then' }]);
});

const allBaseUrls = () => ({
  ...fake.baseUrls,
  openrouter: fake.baseUrls.openai,
  ollama: fake.baseUrls.openai,
});

const request = (model: string): LlmRequest => ({
  task: 'debater',
  model,
  system: 's',
  prompt: 'p',
  maxTokens: 10,
  json: false,
  signal: new AbortController().signal,
});

describe('createProviders', () => {
  it('builds adapters only for providers that have a key', () => {
    const set = createProviders({ openai: 'sk-x-123456', google: '  ', anthropic: '' });
    expect(set.available).toEqual(['openai']);
    expect(Object.keys(set.providers)).toEqual(['openai']);
  });

  it('builds ollama from a base URL alone (it needs no key)', () => {
    expect(createProviders({}, { baseUrls: { ollama: 'http://127.0.0.1:11434/v1' } }).available).toEqual([
      'ollama',
    ]);
    expect(createProviders({}).available).toEqual([]);
  });

  it('lists available providers in the canonical order', () => {
    const set = createProviders(KEYS, { baseUrls: allBaseUrls() });
    expect(set.available).toEqual(['anthropic', 'openai', 'google', 'openrouter', 'ollama']);
    expect(set.providers.openrouter?.name).toBe('openrouter');
  });

  it('never puts a key in an error message, for any provider', async () => {
    const set = createProviders(KEYS, { baseUrls: allBaseUrls() });
    fake.setScript((req) => ({
      status: 401,
      message: `Invalid API key: ${req.apiKey}. Also: key=${req.apiKey}`,
    }));
    for (const name of set.available) {
      const error = await set.providers[name]?.complete(request('m')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmCallError);
      const text = `${(error as Error).message} ${String((error as Error).stack)} ${JSON.stringify(error)}`;
      expect(text, name).not.toContain(KEYS[name]);
      expect((error as LlmCallError).kind).toBe('client');
    }
    // Each request did carry its own key.
    expect(fake.requests.map((r) => r.apiKey)).toEqual(set.available.map((name) => KEYS[name]));
  });
});

describe('parseModelId', () => {
  it('splits provider:model, keeping the colons of ollama tags', () => {
    expect(parseModelId('anthropic:claude-sonnet-5-5')).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
    });
    expect(parseModelId('ollama:qwen3:8b')).toEqual({ provider: 'ollama', model: 'qwen3:8b' });
    expect(parseModelId('openrouter:deepseek/deepseek-v4')).toEqual({
      provider: 'openrouter',
      model: 'deepseek/deepseek-v4',
    });
    expect(parseModelId('qwen3:8b')).toEqual({ provider: undefined, model: 'qwen3:8b' });
  });
});

describe('dispatchingProvider', () => {
  it('sends each routed model to its provider', async () => {
    const set = createProviders(
      { anthropic: KEYS.anthropic, google: KEYS.google },
      { baseUrls: fake.baseUrls },
    );
    expect(set.available).toEqual(['anthropic', 'google']);
    const provider = dispatchingProvider(set);
    const plan = planDebate('mixed', null, set.available);
    const judge = await provider.complete(request(plan.judge.id));
    expect(judge.model).toBe(plan.judge.id);
    for (const id of plan.panelModels) await provider.complete(request(id));
    expect(fake.count('anthropic')).toBeGreaterThan(0);
    expect(fake.count('google')).toBeGreaterThan(0);
    expect(fake.requests[0]?.model).toBe(plan.judge.model);
  });

  it('accepts a bare model with one provider, refuses unknown providers', async () => {
    const single = dispatchingProvider(
      createProviders({ openai: KEYS.openai }, { baseUrls: { openai: fake.baseUrls.openai } }),
    );
    expect((await single.complete(request('gpt-6-luna'))).model).toBe('openai:gpt-6-luna');
    const error = await single.complete(request('google:gemini-flash-latest')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).kind).toBe('client');
    expect((error as Error).message).toContain('configured: openai');
  });
});
