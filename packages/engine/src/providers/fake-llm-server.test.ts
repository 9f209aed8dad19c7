import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, fakeEmbedding, startFakeLlmServer } from '../testing/fake-llm-server.ts';

/** The fake's non-streaming paths and bookkeeping, through the real SDKs (the adapters only stream). */

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer([{ text: 'first' }, { text: 'second', inputTokens: 5, outputTokens: 2 }]);
});
afterAll(() => fake.close());

describe('fake LLM server', () => {
  it('answers non-streaming requests of all three protocols and counts them', async () => {
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: fake.baseUrls.anthropic, maxRetries: 0 });
    const message = await anthropic.messages.create({
      model: 'claude-haiku-5-5',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'first' }]);

    const openai = new OpenAI({ apiKey: 'k', baseURL: fake.baseUrls.openai, maxRetries: 0 });
    const completion = await openai.chat.completions.create({
      model: 'gpt-6-luna',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('second');
    expect(completion.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 2 });

    const google = new GoogleGenAI({
      apiKey: 'k',
      vertexai: false,
      httpOptions: { baseUrl: fake.baseUrls.google },
    });
    const generated = await google.models.generateContent({ model: 'gemini-flash-latest', contents: 'hi' });
    expect(generated.text).toBe('second'); // the queue's last reply repeats

    expect([fake.count('anthropic'), fake.count('openai'), fake.count('google'), fake.count()]).toEqual([
      1, 1, 1, 3,
    ]);
    expect(fake.requests.map((r) => [r.protocol, r.model, r.stream])).toEqual([
      ['anthropic', 'claude-haiku-5-5', false],
      ['openai', 'gpt-6-luna', false],
      ['google', 'gemini-flash-latest', false],
    ]);
    expect(await Promise.all(fake.requests.map((r) => r.settled))).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
  });

  it('cites a citable document as Anthropic does: text blocks with char_location citations at true offsets', async () => {
    fake.setScript([{ text: 'Hence yes.' }]);
    const data = 'Intro line.\nThe grass is green. The sky is blue.';
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: fake.baseUrls.anthropic, maxRetries: 0 });
    const document = (citations: boolean) => ({
      type: 'document' as const,
      source: { type: 'text' as const, media_type: 'text/plain' as const, data },
      title: 'sky.txt',
      citations: { enabled: citations },
    });
    const ask = (citations: boolean) =>
      anthropic.messages.create({
        model: 'claude-haiku-5-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: [document(citations), { type: 'text', text: 'Colours?' }] }],
      });
    const cited = await ask(true);
    expect(cited.content).toEqual([
      {
        type: 'text',
        text: 'Intro line',
        citations: [
          {
            type: 'char_location',
            cited_text: 'Intro line.\n',
            document_index: 0,
            document_title: 'sky.txt',
            start_char_index: 0,
            end_char_index: 12,
            file_id: null,
          },
        ],
      },
      { type: 'text', text: '. ', citations: [] },
      { type: 'text', text: 'Hence yes.' },
    ]);
    // Without citations enabled the document is not cited.
    expect((await ask(false)).content).toEqual([{ type: 'text', text: 'Hence yes.' }]);
  });

  it('answers 404 for routes it does not speak', async () => {
    const response = await fetch(`${fake.url}/v1/audio/speech`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
  });

  it('answers embeddings that follow the words of the text, in both protocols', async () => {
    const openai = await fetch(`${fake.url}/v1/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'office in Lisbon' }),
    });
    const body = (await openai.json()) as { data: { embedding: number[] }[] };
    expect(body.data[0]?.embedding).toEqual(fakeEmbedding('office in Lisbon'));
    const google = await fetch(`${fake.url}/v1beta/models/text-embedding-004:embedContent`, {
      method: 'POST',
      body: JSON.stringify({ content: { parts: [{ text: 'office in Lisbon' }] } }),
    });
    expect(((await google.json()) as { embedding: { values: number[] } }).embedding.values).toEqual(
      fakeEmbedding('office in Lisbon'),
    );
    const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
    const lisbon = fakeEmbedding('a second office in Lisbon');
    expect(dot(lisbon, fakeEmbedding('office in Lisbon'))).toBeGreaterThan(
      dot(lisbon, fakeEmbedding('hire a baker')),
    );
  });

  it('takes a function script deciding per request', async () => {
    fake.setScript((req) => (req.protocol === 'openai' ? { status: 503 } : { text: `model ${req.model}` }));
    const openai = new OpenAI({ apiKey: 'k', baseURL: fake.baseUrls.openai, maxRetries: 0 });
    await expect(
      openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 503 });
  });
});
