import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/app-error.ts';
import { chooseFunding, type FundingRequest } from './funding.ts';

const base: FundingRequest = {
  plan: 'free',
  balance: 10,
  credits: 3,
  hasProviderKeys: false,
  freeTier: { used: 0, monthly: 5 },
  route: 'api',
  upgradeUrl: 'https://app.example.com/pricing',
};

const codeOf = (request: FundingRequest) => {
  try {
    chooseFunding(request);
    return null;
  } catch (err) {
    return err instanceof AppError ? { code: err.code, extra: err.extra } : err;
  }
};

describe('chooseFunding', () => {
  it('charges credits when the balance covers the mode', () => {
    expect(chooseFunding(base)).toEqual({ source: 'user_credits', charge: 3 });
    expect(chooseFunding({ ...base, balance: 3 })).toEqual({ source: 'user_credits', charge: 3 });
  });

  it('falls back to the free tier on the free plan, then refuses with the limit and an upgrade link', () => {
    expect(chooseFunding({ ...base, balance: 2 })).toEqual({ source: 'free_tier', charge: 0 });
    expect(codeOf({ ...base, balance: 2, freeTier: { used: 5, monthly: 5 } })).toEqual({
      code: 'MONTHLY_LIMIT_REACHED',
      extra: { limit: 5, upgradeUrl: 'https://app.example.com/pricing' },
    });
  });

  it('never moves a debate that was paid for to the free tier: a retry without credits is QUOTA_EXCEEDED', () => {
    expect(codeOf({ ...base, balance: 2, freeTier: null })).toMatchObject({ code: 'QUOTA_EXCEEDED' });
  });

  it('reports missing credits as QUOTA_EXCEEDED on /api and INSUFFICIENT_CREDITS on /v1', () => {
    expect(codeOf({ ...base, plan: 'pro', balance: 2 })).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(codeOf({ ...base, plan: 'pro', balance: 2, route: 'v1' })).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      extra: { required: 3, balance: 2 },
    });
  });

  it('runs BYOK plans on the caller keys only, and refuses provider keys on other plans', () => {
    expect(chooseFunding({ ...base, plan: 'byok', balance: 0, hasProviderKeys: true })).toEqual({
      source: 'byok',
      charge: 0,
    });
    expect(codeOf({ ...base, plan: 'byok_pro' })).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(codeOf({ ...base, hasProviderKeys: true })).toMatchObject({ code: 'BYOK_REQUIRED' });
  });
});
