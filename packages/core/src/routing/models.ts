import type { KeyPreset, ProviderName, TaskName, Tier } from '@verdict/contracts';
import { type ModelOverrides, PROVIDER_TABLE, PROVIDERS } from './providers.ts';

/**
 * Which model serves which task: the models per tier and provider (from the provider table), a default tier
 * per task, key presets that shift tiers, a key's per-task overrides, a key's provider allow-list, and the
 * debate presets of POST /api/debates. Everything here is pure; nothing calls a provider. Used by debate
 * creation (the judge a free-plan response names) and by the engine (the models a debate runs on).
 */

/** The model table, tier × provider → model id, as the provider table (providers.ts) lists it. */
export const MODEL_TABLE: Readonly<Record<Tier, Readonly<Partial<Record<ProviderName, string>>>>> = (() => {
  const table: Record<Tier, Partial<Record<ProviderName, string>>> = {
    opus: {},
    sonnet: {},
    haiku: {},
    local: {},
  };
  for (const provider of PROVIDERS) {
    const tiers: Partial<Record<Tier, string>> = PROVIDER_TABLE[provider].tiers;
    for (const [tier, model] of Object.entries(tiers) as [Tier, string][]) table[tier][provider] = model;
  }
  return table;
})();

/**
 * Default tier per task (the balanced preset). The judge (synthesizer) gets the largest model because
 * one call decides the verdict; debaters and the analysts that read a whole debate get the balanced tier;
 * short classification-style calls get the fast tier.
 */
export const TASK_DEFAULT_TIER: Readonly<Record<TaskName, Tier>> = {
  orchestrator: 'sonnet',
  synthesizer: 'opus',
  debater: 'sonnet',
  classifier: 'haiku',
  search_planner: 'haiku',
  mid_debate_analyst: 'sonnet',
  fact_checker: 'sonnet',
  controversy_scorer: 'haiku',
};

/** One step cheaper: opus → sonnet → haiku; haiku and local stay. */
const CHEAPER: Readonly<Record<Tier, Tier>> = {
  opus: 'sonnet',
  sonnet: 'haiku',
  haiku: 'haiku',
  local: 'local',
};

/**
 * The tier a key preset gives a task, before the key's own overrides:
 * - balanced (also no preset): the task defaults above.
 * - economy: every task one tier cheaper (the judge runs on sonnet, debaters on haiku).
 * - hackathon: haiku everywhere, for fast, cheap demos.
 * - local: the local tier everywhere, which only Ollama serves.
 * - custom: no preset adjustment at all; the task defaults apply wherever the key has no override, so
 *   the key's routingOverrides are the whole configuration.
 */
export function presetTier(preset: KeyPreset | null | undefined, task: TaskName): Tier {
  const base = TASK_DEFAULT_TIER[task];
  switch (preset ?? 'balanced') {
    case 'economy':
      return CHEAPER[base];
    case 'hackathon':
      return 'haiku';
    case 'local':
      return 'local';
    default:
      return base;
  }
}

export type RoutingOptions = {
  /** Providers this deployment or request has keys for. */
  available: readonly ProviderName[];
  preset?: KeyPreset | null | undefined;
  /** From the key's config: task → tier; null (or absent) leaves that task to the preset. */
  routingOverrides?: Partial<Record<TaskName, Tier | null>> | null | undefined;
  /** From the key's config: only these providers may serve; null means any. */
  allowedProviders?: readonly ProviderName[] | null | undefined;
  /** Tried first, in this order, before the general preference (debate presets use it). */
  prefer?: readonly ProviderName[] | undefined;
  /** Model ids replacing the table's for some tier/provider pairs (debate presets use it). */
  models?: Partial<Record<Tier, Partial<Record<ProviderName, string>>>> | undefined;
  /**
   * The operator's model ids (`<PROVIDER>_MODEL_<TIER>`): the deployment's own model table, under a debate
   * preset's `models` (a preset naming DeepSeek models keeps them).
   */
  deployment?: ModelOverrides | undefined;
};

export type Route = {
  task: TaskName;
  tier: Tier;
  provider: ProviderName;
  model: string;
  /** "provider:model", what seats and the dispatching provider carry. */
  id: string;
  /** Where the tier came from. */
  source: 'default' | 'preset' | 'override';
};

/** No provider may serve what the routing asked for. Carries what it saw, never any key. */
export class RoutingError extends Error {
  override name = 'RoutingError';
  readonly code = 'NO_PROVIDER';
  readonly task: TaskName;
  readonly tier: Tier;

  constructor(task: TaskName, tier: Tier, message: string) {
    super(message);
    this.task = task;
    this.tier = tier;
  }
}

/** The tier a task runs at under these options, and why. */
export function tierFor(
  task: TaskName,
  options: Pick<RoutingOptions, 'preset' | 'routingOverrides'>,
): { tier: Tier; source: Route['source'] } {
  const override = options.routingOverrides?.[task];
  if (override) return { tier: override, source: 'override' };
  const tier = presetTier(options.preset, task);
  const adjusted = (options.preset ?? 'balanced') !== 'balanced' && options.preset !== 'custom';
  return { tier, source: adjusted ? 'preset' : 'default' };
}

/** Providers that may serve, in the order they are tried: available ∩ allowed, preferred first. */
export function candidateProviders(options: RoutingOptions): ProviderName[] {
  const allowed = options.allowedProviders ? new Set(options.allowedProviders) : null;
  const available = new Set(options.available);
  const order = [...(options.prefer ?? []), ...PROVIDERS];
  return [...new Set(order)].filter((p) => available.has(p) && (!allowed || allowed.has(p)));
}

export function modelFor(
  tier: Tier,
  provider: ProviderName,
  models?: RoutingOptions['models'],
  deployment?: ModelOverrides,
): string | undefined {
  return models?.[tier]?.[provider] ?? deployment?.[provider]?.[tier] ?? MODEL_TABLE[tier][provider];
}

export const modelId = (provider: ProviderName, model: string) => `${provider}:${model}`;

/**
 * Routes one task: tier from override > preset > task default; provider = the first candidate (available,
 * allowed, preferred first) that has a model for that tier. Tiers are never swapped behind the caller's
 * back (a local key does not fall back to a cloud API, an opus judge does not quietly become haiku):
 * when nothing fits, a RoutingError says what was missing.
 */
export function routeTask(task: TaskName, options: RoutingOptions): Route {
  const { tier, source } = tierFor(task, options);
  const candidates = candidateProviders(options);
  for (const provider of candidates) {
    const model = modelFor(tier, provider, options.models, options.deployment);
    if (model) return { task, tier, provider, model, id: modelId(provider, model), source };
  }
  throw new RoutingError(task, tier, explain(task, tier, options, candidates));
}

function explain(task: TaskName, tier: Tier, options: RoutingOptions, candidates: ProviderName[]): string {
  const list = (items: readonly string[] | null | undefined) =>
    items == null ? 'any' : items.length ? items.join(', ') : 'none';
  const servers = PROVIDERS.filter((p) => modelFor(tier, p, options.models, options.deployment));
  const why =
    options.available.length === 0
      ? 'no provider is configured (no provider keys)'
      : candidates.length === 0
        ? `none of the available providers (${list(options.available)}) is in the key's allowedProviders (${list(options.allowedProviders)})`
        : `tier ${tier} is served only by ${list(servers)}, and the usable providers are ${list(candidates)}`;
  return `no provider can serve task ${task} at tier ${tier}: ${why}`;
}

/**
 * Distinct models for a debate panel across the usable providers, so seats can rotate through them
 * (mixed panels argue better than same-model ones). One model per provider at the task's tier, in
 * preference order; with `spread`, also the neighbouring tiers (so a single provider still yields
 * several models). Throws a RoutingError when no provider fits at all.
 */
export function modelsForPanel(
  options: RoutingOptions & { task?: TaskName; spread?: boolean; max?: number },
): string[] {
  const task = options.task ?? 'debater';
  const first = routeTask(task, options);
  const tiers: Tier[] = [first.tier];
  if (options.spread) {
    const neighbours: Record<Tier, Tier[]> = {
      opus: ['sonnet'],
      sonnet: ['opus', 'haiku'],
      haiku: ['sonnet'],
      local: [],
    };
    tiers.push(...neighbours[first.tier]);
  }
  const ids: string[] = [];
  for (const tier of tiers) {
    for (const provider of candidateProviders(options)) {
      const model = modelFor(tier, provider, options.models, options.deployment);
      if (model) ids.push(modelId(provider, model));
    }
  }
  const distinct = [...new Set(ids)];
  return options.max ? distinct.slice(0, Math.max(1, options.max)) : distinct;
}

/**
 * Debate presets accepted by POST /api/debates (`preset`). Each is a routing choice layered under the
 * key's configuration: the debate preset replaces the key's preset for that debate, the key's
 * routingOverrides still win per task, and the key's allowedProviders still restrict.
 */
export const DEBATE_PRESETS = ['hackathon', 'balanced', 'economy', 'deepseek', 'groq', 'mixed'] as const;
export type DebatePreset = (typeof DEBATE_PRESETS)[number];

export type DebatePresetRouting = {
  /** The tier scheme (see presetTier). */
  keyPreset: KeyPreset;
  /** Only these providers may serve (intersected with the key's allowedProviders). */
  only?: readonly ProviderName[];
  prefer?: readonly ProviderName[];
  /** Model ids replacing the table's for this preset. Configuration, not truth, as above. */
  models?: RoutingOptions['models'];
  /** Seat the panel on several models (modelsForPanel with spread) instead of one. */
  mixPanel: boolean;
};

export const DEBATE_PRESET_ROUTING: Readonly<Record<DebatePreset, DebatePresetRouting>> = {
  /** Haiku-class models for every task, one model for the whole panel: fastest and cheapest, for demos. */
  hackathon: { keyPreset: 'hackathon', mixPanel: false },
  /** The task defaults (judge opus, debaters sonnet), one debater model: the default. */
  balanced: { keyPreset: 'balanced', mixPanel: false },
  /** Every task one tier cheaper (judge sonnet, debaters haiku), one debater model. */
  economy: { keyPreset: 'economy', mixPanel: false },
  /**
   * DeepSeek's open models: through OpenRouter when there is an OpenRouter key, else a local Ollama
   * copy. Needs one of those two; other keys are not used.
   */
  deepseek: {
    keyPreset: 'balanced',
    only: ['openrouter', 'ollama'],
    prefer: ['openrouter', 'ollama'],
    models: {
      opus: { openrouter: 'deepseek/deepseek-r2', ollama: 'deepseek-r1:70b' },
      sonnet: { openrouter: 'deepseek/deepseek-v4', ollama: 'deepseek-r1:32b' },
      haiku: { openrouter: 'deepseek/deepseek-v4-flash', ollama: 'deepseek-r1:8b' },
      local: { ollama: 'deepseek-r1:32b' },
    },
    mixPanel: false,
  },
  /**
   * Low latency: open models that Groq hosts, through OpenRouter with the `:nitro` variant (OpenRouter
   * then sorts upstreams by throughput, which in practice lands on Groq-class hardware). Pinning Groq
   * itself would need OpenRouter's `provider.only` request field, which the adapter does not send.
   * Tiers shift one step cheaper like economy, since speed is the point. Needs an OpenRouter key.
   */
  groq: {
    keyPreset: 'economy',
    only: ['openrouter'],
    models: {
      opus: { openrouter: 'openai/gpt-oss-120b:nitro' },
      sonnet: { openrouter: 'moonshotai/kimi-k2:nitro' },
      haiku: { openrouter: 'meta-llama/llama-4-maverick:nitro' },
    },
    mixPanel: false,
  },
  /**
   * Balanced tiers, but the panel mixes models: one per usable provider, plus neighbouring tiers, so even
   * a single key gives a panel of different models. The judge stays on the preferred provider.
   */
  mixed: { keyPreset: 'balanced', mixPanel: true },
};

export type KeyRouting = Pick<RoutingOptions, 'preset' | 'routingOverrides' | 'allowedProviders'>;

/** Routing options for one debate: the debate preset layered under the key's configuration. */
export function debateRoutingOptions(
  preset: DebatePreset | null | undefined,
  key: KeyRouting | null | undefined,
  available: readonly ProviderName[],
  deployment?: ModelOverrides,
): RoutingOptions {
  const base: RoutingOptions = {
    available,
    deployment,
    preset: key?.preset ?? null,
    routingOverrides: key?.routingOverrides ?? null,
    allowedProviders: key?.allowedProviders ?? null,
  };
  if (!preset) return base;
  const routing = DEBATE_PRESET_ROUTING[preset];
  const keyAllowed = key?.allowedProviders ?? null;
  const allowed = routing.only
    ? routing.only.filter((p) => !keyAllowed || keyAllowed.includes(p))
    : keyAllowed;
  return {
    ...base,
    preset: routing.keyPreset,
    allowedProviders: allowed,
    prefer: routing.prefer,
    models: routing.models,
  };
}

export type DebatePlan = { judge: Route; debater: Route; classifier: Route; panelModels: string[] };

/** The judge, the debater and classifier routes and the panel's models for one debate. Throws RoutingError. */
export function planDebate(
  preset: DebatePreset | null | undefined,
  key: KeyRouting | null | undefined,
  available: readonly ProviderName[],
  deployment?: ModelOverrides,
): DebatePlan {
  const options = debateRoutingOptions(preset, key, available, deployment);
  const judge = routeTask('synthesizer', options);
  const debater = routeTask('debater', options);
  // Without a debate preset, seats rotate through one model per usable provider at the debater's tier: a
  // mixed panel whenever several providers are configured. A preset that does not mix pins one model.
  const panelModels = !preset
    ? modelsForPanel(options)
    : DEBATE_PRESET_ROUTING[preset].mixPanel
      ? modelsForPanel({ ...options, spread: true })
      : [debater.id];
  return { judge, debater, classifier: routeTask('classifier', options), panelModels };
}
