import type { FundingSource, ProviderName } from '@verdict/contracts';
import { type DebatePreset, type KeyRouting, planDebate } from './models.ts';
import { type ModelOverrides, usableProviders } from './providers.ts';
import { SIMULATED_FREE_JUDGE, SIMULATED_MODELS } from './simulated-models.ts';

export type ProviderSettings = {
  keys: Partial<Record<ProviderName, string>>;
  baseUrls: Partial<Record<ProviderName, string>>;
  /** The operator's model ids per provider and tier. */
  models?: ModelOverrides;
};

/**
 * The judge a debate will get, as the engine will choose it: for the create response's `judgeModel`. The
 * free tier runs on the economy routing unless the caller chose a preset.
 */
export function judgeModelFor(
  providers: ProviderSettings,
  debate: { fundingSource: FundingSource; preset: string | null; routing: KeyRouting | null },
): string {
  const available = usableProviders(providers.keys, providers.baseUrls);
  if (available.length === 0) {
    return debate.fundingSource === 'free_tier' ? SIMULATED_FREE_JUDGE : SIMULATED_MODELS.judge;
  }
  const preset = (debate.preset ??
    (debate.fundingSource === 'free_tier' ? 'economy' : null)) as DebatePreset | null;
  return planDebate(preset, debate.routing, available, providers.models).judge.id;
}
