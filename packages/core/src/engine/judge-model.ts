import type { Config } from '../config/config.ts';
import type { FundingSource } from '../debates/debate.entity.ts';
import { SIMULATED_FREE_JUDGE, SIMULATED_MODELS } from './debate-providers.ts';
import { type DebatePreset, type KeyRouting, PROVIDERS, planDebate } from './llm/models.ts';

/** The judge a debate will get, as the engine will choose it: for the create response's `judgeModel`. */
export function judgeModelFor(
  config: Config,
  debate: { fundingSource: FundingSource; preset: string | null; routing: KeyRouting | null },
): string {
  // The same providers the registry builds from the config, without building SDK clients.
  const available = PROVIDERS.filter(
    (p) => config.providers.keys[p] || (p === 'ollama' && config.providers.baseUrls.ollama),
  );
  if (available.length === 0) {
    return debate.fundingSource === 'free_tier' ? SIMULATED_FREE_JUDGE : SIMULATED_MODELS.judge;
  }
  const preset = (debate.preset ??
    (debate.fundingSource === 'free_tier' ? 'economy' : null)) as DebatePreset | null;
  return planDebate(preset, debate.routing, available).judge.id;
}
