import type { ProviderName } from '@verdict/contracts';
import { BYOK_PROVIDERS } from '../routing/providers.ts';
import { AppError } from '../shared/app-error.ts';

/** Keys a caller brought for the providers BYOK plans may use (the provider table's `byok`). */
export type ByokKeys = Partial<Record<ProviderName, string>>;

const invalid = (message: string) =>
  new AppError('VALIDATION_ERROR', `X-Provider-Keys: ${message}`, {
    details: [{ path: 'X-Provider-Keys', message, code: 'invalid_header' }],
  });

/**
 * Reads `X-Provider-Keys` in either documented format: `openai:sk-…,anthropic:sk-…` or a JSON object
 * `{"openai":"sk-…"}`. Errors never repeat the header's content, which is a secret.
 */
export function parseProviderKeysHeader(header: string | undefined): ByokKeys | null {
  if (header === undefined) return null;
  const text = header.trim();
  if (text === '') throw invalid('empty');
  let pairs: [string, unknown][];
  if (text.startsWith('{') || text.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalid('not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw invalid('expected a JSON object');
    pairs = Object.entries(parsed);
  } else {
    pairs = text.split(',').map((part) => {
      const colon = part.indexOf(':');
      if (colon <= 0) throw invalid('expected provider:key pairs separated by commas');
      return [part.slice(0, colon).trim(), part.slice(colon + 1).trim()];
    });
  }
  const keys: ByokKeys = {};
  for (const [provider, key] of pairs) {
    if (!(BYOK_PROVIDERS as string[]).includes(provider)) {
      // Never echoed: a key pasted in the wrong place would otherwise come back in the error.
      throw invalid(`unknown provider name (use ${BYOK_PROVIDERS.join(', ')})`);
    }
    if (typeof key !== 'string' || key.length < 8 || key.length > 500 || /\s/.test(key)) {
      throw invalid(`the ${provider} key is malformed`);
    }
    keys[provider as keyof ByokKeys] = key;
  }
  if (Object.keys(keys).length === 0) throw invalid('no provider key given');
  return keys;
}
