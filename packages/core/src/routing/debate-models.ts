import type { FundingSource, ProviderName } from '@verdict/contracts';
import { type DebatePreset, type KeyRouting, planDebate } from './models.ts';
import type { ProviderSettings } from './providers.ts';
import { usableProviders } from './providers.ts';
import { SIMULATED_FREE_JUDGE, SIMULATED_MODELS } from './simulated-models.ts';

/** The models one debate runs on, as "provider:model" ids (or the simulated model's names). */
export type DebateModels = {
  /** True when it runs on the SIMULATED provider (the service has no provider key): it costs nothing. */
  simulated: boolean;
  /** The seats rotate through these (seatModel). */
  panel: string[];
  judge: string;
  classifier: string;
};

/** A debate as routing sees it: who pays, its stored preset, the creating key's routing. */
export type DebateRoutingFacts = {
  fundingSource: FundingSource;
  /** As stored on the debate: the caller's preset, or economy for the free tier (creation decides). */
  preset: string | null;
  routing: KeyRouting | null;
};

/**
 * The models a debate gets, as the engine chooses them (providers/provider-choice.ts builds its SDK clients
 * for these): a BYOK debate routes over the caller's own keys; any other over the service's keys, or on the
 * SIMULATED provider when the service has none (the free tier then gets the lighter simulated judge). Throws
 * RoutingError when no usable provider serves a task. The estimate and the create response's judge read it.
 */
export function debateModelsFor(
  providers: ProviderSettings,
  debate: DebateRoutingFacts,
  byokKeys: Partial<Record<ProviderName, string>> | null = null,
): DebateModels {
  const keys = debate.fundingSource === 'byok' ? (byokKeys ?? {}) : providers.keys;
  const available = usableProviders(keys, providers.baseUrls);
  if (debate.fundingSource !== 'byok' && available.length === 0) {
    return {
      simulated: true,
      panel: [...SIMULATED_MODELS.panel],
      judge: debate.fundingSource === 'free_tier' ? SIMULATED_FREE_JUDGE : SIMULATED_MODELS.judge,
      classifier: SIMULATED_MODELS.classifier,
    };
  }
  const plan = planDebate(debate.preset as DebatePreset | null, debate.routing, available, providers.models);
  return { simulated: false, panel: plan.panelModels, judge: plan.judge.id, classifier: plan.classifier.id };
}

/** The model of the seat at `index`: seats rotate through the panel's models, so neighbours differ. */
export function seatModel(index: number, panel: readonly string[]): string {
  if (panel.length === 0) throw new Error('a panel needs at least one model');
  return panel[index % panel.length] as string;
}

/** The stored preset of a new debate: the caller's, else the free tier's lighter (economy) routing. */
export const storedPreset = (preset: string | null, fundingSource: FundingSource): string | null =>
  preset ?? (fundingSource === 'free_tier' ? 'economy' : null);
