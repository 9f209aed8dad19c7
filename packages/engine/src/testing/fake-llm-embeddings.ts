import { estimateTokens } from './fake-llm-bodies.ts';
import type { Route } from './fake-llm-routes.ts';

/** Dimensions of the fake embeddings: small, the same for every model. */
export const FAKE_EMBEDDING_DIMENSIONS = 64;

/**
 * A deterministic embedding of `text`: each word of three letters or more adds ±1 at a position its hash
 * picks, so texts sharing words point the same way (cosine similarity follows word overlap).
 */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(FAKE_EMBEDDING_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/\p{L}{3,}/gu) ?? []) {
    let hash = 2166136261;
    for (const char of word) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619);
    const index = (hash >>> 0) % FAKE_EMBEDDING_DIMENSIONS;
    vector[index] = (vector[index] ?? 0) + ((hash >>> 16) & 1 ? 1 : -1);
  }
  return vector;
}

export function embeddingBody(shape: NonNullable<Route['embedding']>, body: Record<string, unknown>) {
  if (shape === 'openai') {
    const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
    return {
      object: 'list',
      model: String(body.model ?? ''),
      data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(input) })),
      usage: {
        prompt_tokens: estimateTokens(inputs.join(' ')),
        total_tokens: estimateTokens(inputs.join(' ')),
      },
    };
  }
  const textOf = (content: unknown) =>
    ((content as { parts?: { text?: string }[] } | undefined)?.parts ?? [])
      .map((part) => part.text ?? '')
      .join(' ');
  if (shape === 'google-single') return { embedding: { values: fakeEmbedding(textOf(body.content)) } };
  const requests = (body.requests as { content?: unknown }[] | undefined) ?? [];
  return { embeddings: requests.map((request) => ({ values: fakeEmbedding(textOf(request.content)) })) };
}
