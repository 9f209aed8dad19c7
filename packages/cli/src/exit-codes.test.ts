import { PlanRequiredError, VerdictError } from '@verdict/sdk';
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeOf, messageOf } from './exit-codes.ts';

describe('how a refused call ends the CLI', () => {
  it('says which plan to choose and where on a plan refusal, and exits 4 like the other limits', () => {
    const refusal = new PlanRequiredError({
      status: 402,
      code: 'BYOK_REQUIRED',
      message: 'The evidence engine needs the Pro, BYOK Pro or Enterprise plan; this account is on Free',
      requestId: 'req-1',
      requiredPlan: 'pro',
      upgradeUrl: 'http://localhost:3000/pricing',
    });
    expect(messageOf(refusal)).toBe(
      'BYOK_REQUIRED: The evidence engine needs the Pro, BYOK Pro or Enterprise plan; this account is on Free ' +
        '(request req-1)\n  upgrade to Pro: http://localhost:3000/pricing',
    );
    expect(exitCodeOf(refusal)).toBe(EXIT.limits);
    const byokPro = new PlanRequiredError({
      status: 402,
      code: 'BYOK_REQUIRED',
      message: 'Attachments need the BYOK Pro or Enterprise plan',
      requiredPlan: 'byok_pro',
      upgradeUrl: 'https://app.example/pricing',
    });
    expect(messageOf(byokPro).split('\n')[1]).toBe('  upgrade to BYOK Pro: https://app.example/pricing');
  });

  it('keeps other refusals to one line', () => {
    const limited = new VerdictError({ status: 429, code: 'RATE_LIMITED', message: 'slow down' });
    expect(messageOf(limited)).toBe('RATE_LIMITED: slow down');
    expect(exitCodeOf(limited)).toBe(EXIT.limits);
  });
});
