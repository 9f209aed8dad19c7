import { debateModelsFor, RoutingError } from '@verdict/core';
import { Context, Effect, Layer } from 'effect';
import { EngineBus } from '../services.ts';
import { BusUnavailable } from '../store/errors.ts';
import type { DebateToRun } from '../store/records.ts';
import type { LlmProvider } from './port.ts';
import {
  createProviders,
  dispatchingProvider,
  type ProviderKeys,
  type ProviderRegistryOptions,
  type ProviderSet,
} from './registry.ts';
import { type SimulatedOptions, simulatedProvider } from './simulated.ts';

/** The SDK clients a debate runs on, its panel's models, its judge's, and the one that classifies it. */
export type DebateProviders = { provider: LlmProvider; panel: string[]; judge: string; classifier: string };

/** Why a debate cannot run at all (no key reaches a model it needs): it fails PROVIDER_ERROR with this. */
export type ProvidersUnavailable = { unavailable: string };

export type ProviderChoiceOptions = {
  /** The service's own provider keys; with none, debates run on the SIMULATED provider. */
  keys: ProviderKeys;
  registry?: ProviderRegistryOptions | undefined;
  simulated?: SimulatedOptions | undefined;
};

/**
 * Chooses the models and SDK clients each debate runs on: its own keys (BYOK, fetched from the API process
 * that received them), the service's, or the SIMULATED provider when the service has none.
 */
export class ProviderChoice extends Context.Service<
  ProviderChoice,
  {
    /** True when no provider key is configured and debates run on the SIMULATED provider. */
    readonly simulated: boolean;
    readonly providersFor: (
      debate: DebateToRun,
    ) => Effect.Effect<DebateProviders | ProvidersUnavailable, BusUnavailable>;
  }
>()('@verdict/engine/ProviderChoice') {
  static layer(options: ProviderChoiceOptions) {
    return Layer.effect(
      ProviderChoice,
      Effect.gen(function* () {
        const bus = yield* EngineBus;
        return ProviderChoice.of(makeChoice(options, (debateId) => bus.keys.fetch(debateId)));
      }),
    );
  }
}

function makeChoice(
  options: ProviderChoiceOptions,
  fetchKeys: (debateId: string) => Promise<Record<string, string> | null>,
) {
  const service = createProviders(options.keys, options.registry);
  const simulated = service.available.length === 0;
  const simulatedLlm = simulatedProvider(options.simulated);
  const settings = {
    keys: options.keys,
    baseUrls: options.registry?.baseUrls ?? {},
    models: options.registry?.models,
  };

  // The models are core's choice (routing/debate-models.ts), the one the estimate and the create response
  // read too; the SDK clients for them are built here.
  const choose = (
    debate: DebateToRun,
    set: ProviderSet,
    byokKeys: ProviderKeys | null,
  ): DebateProviders | ProvidersUnavailable => {
    try {
      const models = debateModelsFor(
        settings,
        { fundingSource: debate.funding_source, preset: debate.preset, routing: debate.routing },
        byokKeys,
      );
      return {
        provider: models.simulated ? simulatedLlm : dispatchingProvider(set),
        panel: models.panel,
        judge: models.judge,
        classifier: models.classifier,
      };
    } catch (error) {
      if (error instanceof RoutingError) return { unavailable: error.message };
      throw error;
    }
  };

  const byok = (debate: DebateToRun) =>
    Effect.tryPromise({
      try: () => fetchKeys(debate.id),
      catch: (cause) => new BusUnavailable({ cause }),
    }).pipe(
      Effect.map((keys) =>
        keys
          ? choose(debate, createProviders(keys as ProviderKeys, options.registry), keys as ProviderKeys)
          : {
              unavailable:
                'The provider keys of this BYOK debate are no longer available (the service restarted before it ran); create it again',
            },
      ),
    );

  return {
    simulated,
    providersFor: (debate: DebateToRun) =>
      debate.funding_source === 'byok' ? byok(debate) : Effect.sync(() => choose(debate, service, null)),
  };
}
