import { ProviderName, TaskName, Tier } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import {
  DEBATE_PRESET_ROUTING,
  DEBATE_PRESETS,
  MODEL_TABLE,
  modelsForPanel,
  planDebate,
  presetTier,
  RoutingError,
  routeTask,
  TASK_DEFAULT_TIER,
} from './models.ts';

const ALL = ProviderName.options;

describe('model table', () => {
  it('covers every tier, and every cloud tier on every provider', () => {
    for (const tier of Tier.options) expect(Object.keys(MODEL_TABLE[tier]).length).toBeGreaterThan(0);
    for (const tier of ['opus', 'sonnet', 'haiku'] as const) {
      for (const provider of ALL) expect(MODEL_TABLE[tier][provider]).toBeTruthy();
    }
  });

  it('serves the local tier on ollama only', () => {
    expect(Object.keys(MODEL_TABLE.local)).toEqual(['ollama']);
  });

  it('gives every task a default tier', () => {
    expect(Object.keys(TASK_DEFAULT_TIER).sort()).toEqual([...TaskName.options].sort());
    expect(TASK_DEFAULT_TIER.debater).toBe('sonnet');
    expect(TASK_DEFAULT_TIER.synthesizer).toBe('opus');
    expect(TASK_DEFAULT_TIER.classifier).toBe('haiku');
  });
});

describe('presetTier', () => {
  it('balanced, custom and no preset use the task defaults', () => {
    for (const task of TaskName.options) {
      expect(presetTier('balanced', task)).toBe(TASK_DEFAULT_TIER[task]);
      expect(presetTier('custom', task)).toBe(TASK_DEFAULT_TIER[task]);
      expect(presetTier(null, task)).toBe(TASK_DEFAULT_TIER[task]);
      expect(presetTier(undefined, task)).toBe(TASK_DEFAULT_TIER[task]);
    }
  });

  it('economy moves every task one tier cheaper', () => {
    expect(presetTier('economy', 'synthesizer')).toBe('sonnet');
    expect(presetTier('economy', 'debater')).toBe('haiku');
    expect(presetTier('economy', 'classifier')).toBe('haiku');
  });

  it('hackathon is haiku everywhere, local is local everywhere', () => {
    for (const task of TaskName.options) {
      expect(presetTier('hackathon', task)).toBe('haiku');
      expect(presetTier('local', task)).toBe('local');
    }
  });
});

describe('routeTask', () => {
  it('routes the default tier to the first available provider in preference order', () => {
    expect(routeTask('debater', { available: ['google', 'openai'] })).toEqual({
      task: 'debater',
      tier: 'sonnet',
      provider: 'openai',
      model: MODEL_TABLE.sonnet.openai,
      id: `openai:${MODEL_TABLE.sonnet.openai}`,
      source: 'default',
    });
    expect(routeTask('synthesizer', { available: ALL })).toMatchObject({
      provider: 'anthropic',
      tier: 'opus',
      model: MODEL_TABLE.opus.anthropic,
    });
  });

  it('applies the key preset', () => {
    const route = routeTask('synthesizer', { available: ['anthropic'], preset: 'economy' });
    expect(route).toMatchObject({ tier: 'sonnet', source: 'preset', model: MODEL_TABLE.sonnet.anthropic });
    expect(routeTask('synthesizer', { available: ['anthropic'], preset: 'hackathon' }).tier).toBe('haiku');
  });

  it('lets a routing override beat the preset', () => {
    const route = routeTask('debater', {
      available: ['anthropic'],
      preset: 'hackathon',
      routingOverrides: { debater: 'opus' },
    });
    expect(route).toMatchObject({ tier: 'opus', source: 'override', model: MODEL_TABLE.opus.anthropic });
  });

  it('treats a null override as no override for that task only', () => {
    const options = {
      available: ['anthropic'] as ProviderName[],
      preset: 'economy' as const,
      routingOverrides: { debater: null, synthesizer: 'opus' as const },
    };
    expect(routeTask('debater', options)).toMatchObject({ tier: 'haiku', source: 'preset' });
    expect(routeTask('synthesizer', options)).toMatchObject({ tier: 'opus', source: 'override' });
    expect(routeTask('classifier', options)).toMatchObject({ tier: 'haiku', source: 'preset' });
  });

  it('custom preset: overrides where given, task defaults elsewhere', () => {
    const options = {
      available: ['openai'] as ProviderName[],
      preset: 'custom' as const,
      routingOverrides: { classifier: 'opus' as const },
    };
    expect(routeTask('classifier', options)).toMatchObject({ tier: 'opus', source: 'override' });
    expect(routeTask('debater', options)).toMatchObject({ tier: 'sonnet', source: 'default' });
  });

  it('restricts providers to allowedProviders', () => {
    const route = routeTask('debater', { available: ALL, allowedProviders: ['google', 'ollama'] });
    expect(route.provider).toBe('google');
    expect(routeTask('debater', { available: ALL, allowedProviders: ['ollama'] }).model).toBe(
      MODEL_TABLE.sonnet.ollama,
    );
  });

  it('sends the local preset and local overrides to ollama', () => {
    const route = routeTask('synthesizer', { available: ALL, preset: 'local' });
    expect(route).toMatchObject({ provider: 'ollama', tier: 'local', model: MODEL_TABLE.local.ollama });
    const override = routeTask('fact_checker', {
      available: ALL,
      routingOverrides: { fact_checker: 'local' },
    });
    expect(override.provider).toBe('ollama');
    expect(override.id).toBe(`ollama:${MODEL_TABLE.local.ollama}`);
  });

  it('never falls back from local to a cloud provider', () => {
    expect(() => routeTask('debater', { available: ['anthropic', 'openai'], preset: 'local' })).toThrow(
      /tier local is served only by ollama/,
    );
  });

  it('fails clearly when no provider is configured', () => {
    const error = catchError(() => routeTask('debater', { available: [] }));
    expect(error).toBeInstanceOf(RoutingError);
    expect(error).toMatchObject({ code: 'NO_PROVIDER', task: 'debater', tier: 'sonnet' });
    expect(error.message).toBe(
      'no provider can serve task debater at tier sonnet: no provider is configured (no provider keys)',
    );
  });

  it('fails clearly when allowedProviders excludes every available provider', () => {
    const error = catchError(() =>
      routeTask('synthesizer', { available: ['anthropic', 'openai'], allowedProviders: ['google'] }),
    );
    expect(error).toBeInstanceOf(RoutingError);
    expect(error.message).toContain(
      "none of the available providers (anthropic, openai) is in the key's allowedProviders (google)",
    );
  });

  it('uses preferred providers first and model replacements when given', () => {
    const route = routeTask('debater', {
      available: ['anthropic', 'openrouter'],
      prefer: ['openrouter'],
      models: { sonnet: { openrouter: 'vendor/special' } },
    });
    expect(route).toMatchObject({
      provider: 'openrouter',
      model: 'vendor/special',
      id: 'openrouter:vendor/special',
    });
  });
});

describe('modelsForPanel', () => {
  it('lists one model per usable provider, in preference order', () => {
    expect(modelsForPanel({ available: ['ollama', 'google', 'anthropic'] })).toEqual([
      `anthropic:${MODEL_TABLE.sonnet.anthropic}`,
      `google:${MODEL_TABLE.sonnet.google}`,
      `ollama:${MODEL_TABLE.sonnet.ollama}`,
    ]);
  });

  it('respects allowedProviders, overrides and max', () => {
    const models = modelsForPanel({
      available: ALL,
      allowedProviders: ['openai', 'google'],
      routingOverrides: { debater: 'haiku' },
      max: 1,
    });
    expect(models).toEqual([`openai:${MODEL_TABLE.haiku.openai}`]);
  });

  it('spreads over neighbouring tiers so a single provider still mixes', () => {
    const models = modelsForPanel({ available: ['anthropic'], spread: true });
    expect(models).toEqual([
      `anthropic:${MODEL_TABLE.sonnet.anthropic}`,
      `anthropic:${MODEL_TABLE.opus.anthropic}`,
      `anthropic:${MODEL_TABLE.haiku.anthropic}`,
    ]);
    expect(new Set(models).size).toBe(models.length);
  });

  it('throws a RoutingError when nothing can serve', () => {
    expect(() => modelsForPanel({ available: [] })).toThrow(RoutingError);
  });
});

describe('debate presets', () => {
  it('documents a routing for every preset the API accepts', () => {
    expect(Object.keys(DEBATE_PRESET_ROUTING).sort()).toEqual([...DEBATE_PRESETS].sort());
  });

  it('balanced: opus judge, sonnet debater, one panel model', () => {
    const plan = planDebate('balanced', null, ['anthropic', 'openai']);
    expect(plan.judge).toMatchObject({ provider: 'anthropic', tier: 'opus' });
    expect(plan.debater).toMatchObject({ provider: 'anthropic', tier: 'sonnet' });
    expect(plan.panelModels).toEqual([plan.debater.id]);
  });

  it('without a debate preset, seats one model per configured provider at the debater tier', () => {
    const plan = planDebate(null, null, ['anthropic', 'openai', 'google']);
    expect(plan.panelModels).toEqual([
      `anthropic:${MODEL_TABLE.sonnet.anthropic}`,
      `openai:${MODEL_TABLE.sonnet.openai}`,
      `google:${MODEL_TABLE.sonnet.google}`,
    ]);
    expect(planDebate(null, { allowedProviders: ['openai'] }, ['anthropic', 'openai']).panelModels).toEqual([
      `openai:${MODEL_TABLE.sonnet.openai}`,
    ]);
  });

  it('no debate preset follows the key preset', () => {
    const plan = planDebate(undefined, { preset: 'economy' }, ['openai']);
    expect(plan.judge.tier).toBe('sonnet');
    expect(plan.debater.tier).toBe('haiku');
  });

  it('hackathon and economy shift tiers; key overrides still win', () => {
    expect(planDebate('hackathon', null, ['google']).judge.tier).toBe('haiku');
    expect(planDebate('economy', null, ['google']).judge.tier).toBe('sonnet');
    const plan = planDebate('hackathon', { routingOverrides: { synthesizer: 'opus' } }, ['google']);
    expect(plan.judge.tier).toBe('opus');
  });

  it('mixed seats the panel on several models', () => {
    const plan = planDebate('mixed', null, ['anthropic', 'google']);
    expect(plan.panelModels.length).toBeGreaterThan(2);
    expect(plan.panelModels.slice(0, 2)).toEqual([
      `anthropic:${MODEL_TABLE.sonnet.anthropic}`,
      `google:${MODEL_TABLE.sonnet.google}`,
    ]);
  });

  it('deepseek goes through openrouter, or ollama without one', () => {
    const viaRouter = planDebate('deepseek', null, ['anthropic', 'openrouter', 'ollama']);
    expect(viaRouter.debater).toMatchObject({ provider: 'openrouter', model: 'deepseek/deepseek-v4' });
    expect(planDebate('deepseek', null, ['ollama']).judge.provider).toBe('ollama');
    expect(() => planDebate('deepseek', null, ['anthropic'])).toThrow(RoutingError);
  });

  it('groq needs openrouter and uses :nitro variants', () => {
    const plan = planDebate('groq', null, ['openai', 'openrouter']);
    expect(plan.debater.provider).toBe('openrouter');
    expect(plan.debater.model).toMatch(/:nitro$/);
    expect(() => planDebate('groq', null, ['openai'])).toThrow(/no provider can serve/);
  });

  it("a debate preset cannot widen the key's allowedProviders", () => {
    expect(() =>
      planDebate('deepseek', { allowedProviders: ['anthropic'] }, ['anthropic', 'openrouter']),
    ).toThrow(RoutingError);
    const plan = planDebate('deepseek', { allowedProviders: ['ollama', 'anthropic'] }, [
      'openrouter',
      'ollama',
    ]);
    expect(plan.debater.provider).toBe('ollama');
  });
});

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe("the operator's model ids", () => {
  const deployment = {
    openai: { opus: 'gw-large', sonnet: 'gw-medium' },
    openrouter: { opus: 'gw/router-large' },
  };

  it('replace the table for the tiers they name, on every route of a debate', () => {
    const plan = planDebate(null, null, ['openai'], deployment);
    expect(plan.judge.id).toBe('openai:gw-large');
    expect(plan.debater.id).toBe('openai:gw-medium');
    expect(plan.panelModels).toEqual(['openai:gw-medium']);
    expect(plan.classifier.id).toBe(`openai:${MODEL_TABLE.haiku.openai}`);
  });

  it("stay under a debate preset's own models", () => {
    const plan = planDebate('deepseek', null, ['openrouter'], deployment);
    expect(plan.judge.id).toBe(`openrouter:${DEBATE_PRESET_ROUTING.deepseek.models?.opus?.openrouter}`);
  });
});
