import type { ProviderName } from '@verdict/contracts';
import type { KeyCourier } from '../bus/ports.ts';
import type { Debate } from '../debates/debate.entity.ts';
import { type DebatePreset, planDebate, RoutingError } from '../routing/models.ts';
import { SIMULATED_FREE_JUDGE, SIMULATED_MODELS } from '../routing/simulated-models.ts';
import type { LlmProvider } from './llm/port.ts';
import {
  createProviders,
  dispatchingProvider,
  type ProviderKeys,
  type ProviderRegistryOptions,
} from './llm/registry.ts';
import { type SimulatedOptions, simulatedProvider } from './llm/simulated.ts';

export type DebateProviders = { provider: LlmProvider; panel: string[]; judge: string };

export type ProviderChoiceOptions = {
  keys: KeyCourier;
  /** The service's own provider keys; with none, debates run on the simulated provider. */
  providerKeys: ProviderKeys;
  providerOptions?: ProviderRegistryOptions | undefined;
  simulated?: SimulatedOptions | undefined;
};

/** Chooses the models and SDK clients each debate runs on: its BYOK keys, the service's, or the simulation. */
export function createProviderChoice(options: ProviderChoiceOptions) {
  const service = createProviders(options.providerKeys, options.providerOptions);
  const simulated = service.available.length === 0;
  const simulatedLlm = simulatedProvider(options.simulated);

  const plan = (debate: Debate, set: ReturnType<typeof createProviders>): DebateProviders => {
    const debatePlan = planDebate(
      debate.preset as DebatePreset | null,
      debate.routing,
      set.available as ProviderName[],
    );
    return { provider: dispatchingProvider(set), panel: debatePlan.panelModels, judge: debatePlan.judge.id };
  };

  return {
    /** True when no provider key is configured and debates run on the simulated provider. */
    simulated,
    /** The providers a debate runs on, or why it cannot run at all. */
    providersFor: async (debate: Debate): Promise<DebateProviders | { unavailable: string }> => {
      try {
        if (debate.fundingSource === 'byok') {
          const keys = await options.keys.fetch(debate.id);
          if (!keys) {
            return {
              unavailable:
                'The provider keys of this BYOK debate are no longer available (the service restarted before it ran); create it again',
            };
          }
          return plan(debate, createProviders(keys as ProviderKeys, options.providerOptions));
        }
        if (simulated) {
          // The free tier's lighter judge, as the create response announced (judgeModel).
          const judge = debate.fundingSource === 'free_tier' ? SIMULATED_FREE_JUDGE : SIMULATED_MODELS.judge;
          return { provider: simulatedLlm, panel: SIMULATED_MODELS.panel, judge };
        }
        return plan(debate, service);
      } catch (err) {
        if (err instanceof RoutingError) return { unavailable: err.message };
        throw err;
      }
    },
  };
}
