import type { FundingSource } from '@verdict/contracts';
import { debateModelsFor } from './debate-models.ts';
import type { KeyRouting } from './models.ts';
import type { ProviderSettings } from './providers.ts';

/**
 * The judge a debate will get, as the engine will choose it: for the create response's `judgeModel` (told to
 * free-plan callers, who are not on BYOK). `preset` is the debate's stored one (the free tier's economy).
 */
export function judgeModelFor(
  providers: ProviderSettings,
  debate: { fundingSource: FundingSource; preset: string | null; routing: KeyRouting | null },
): string {
  return debateModelsFor(providers, debate).judge;
}
