import { PlanRequiredError, VerdictError } from '@verdict/sdk';
import { describe, expect, it } from 'vitest';
import { passagesOf } from './passages.ts';

const passage = {
  evidenceId: 'E2',
  source: { kind: 'context' as const, title: 'Context' },
  text: 'Twelve people, two of them on call each week.',
  start: 0,
  end: 46,
  citations: [],
  supports: [],
  undercuts: [],
};
const read = { wanted: true, loading: false, data: undefined, error: undefined };

describe("a debate page's passages, from its evidence read", () => {
  it('looks passages up by their id once read', () => {
    const shown = passagesOf({ ...read, data: { passages: [passage] } });
    expect(shown.state === 'ready' && shown.byId.get('E2')?.text).toBe(passage.text);
  });

  it("turns the plan's refusal into its hint: the refusal's words and where to upgrade", () => {
    const error = new PlanRequiredError({
      status: 402,
      code: 'BYOK_REQUIRED',
      message: 'The evidence engine needs the Pro, BYOK Pro or Enterprise plan; this account is on Free',
      requiredPlan: 'pro',
      upgradeUrl: 'https://verdict.example/pricing',
    });
    expect(passagesOf({ ...read, error })).toEqual({
      state: 'gated',
      message: error.message,
      upgradeUrl: 'https://verdict.example/pricing',
    });
  });

  it('says why any other failure left the passages out', () => {
    const error = new VerdictError({ status: 500, code: 'INTERNAL', message: 'The database is unavailable' });
    expect(passagesOf({ ...read, error })).toEqual({
      state: 'failed',
      message: 'The database is unavailable',
    });
  });

  it('is loading until the read answers, and not read at all when nothing cites a passage', () => {
    expect(passagesOf(read)).toEqual({ state: 'loading' });
    expect(passagesOf({ ...read, loading: true, data: { passages: [passage] } })).toEqual({
      state: 'loading',
    });
    expect(passagesOf({ ...read, wanted: false, data: null })).toEqual({ state: 'none' });
  });
});
