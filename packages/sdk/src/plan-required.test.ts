import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { errorFromResponse, PlanRequiredError, VerdictError } from './errors.ts';
import { planRequiredOf } from './plan-required.ts';
import { isTransient } from './transport.ts';

const MESSAGE = 'The evidence engine needs the Pro, BYOK Pro or Enterprise plan; this account is on Free';

const refusal = (error: Record<string, unknown>) =>
  new Response(JSON.stringify({ error }), {
    status: 402,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-402' },
  });

describe('plan refusals', () => {
  it('reads a 402 BYOK_REQUIRED as a PlanRequiredError naming the plan and where to choose it', async () => {
    const error = await errorFromResponse(
      refusal({
        code: 'BYOK_REQUIRED',
        message: MESSAGE,
        requiredPlan: 'pro',
        upgradeUrl: 'https://app.example/pricing',
      }),
    );
    expect(error).toBeInstanceOf(PlanRequiredError);
    expect(error).toBeInstanceOf(VerdictError);
    expect(error).toMatchObject({
      name: 'PlanRequiredError',
      status: 402,
      code: 'BYOK_REQUIRED',
      message: MESSAGE,
      requiredPlan: 'pro',
      upgradeUrl: 'https://app.example/pricing',
      requestId: 'req-402',
    });
    // Choosing a plan is the way out, not waiting: the client never repeats it.
    expect(isTransient(error)).toBe(false);
    expect(planRequiredOf(error)).toEqual({
      message: MESSAGE,
      requiredPlan: 'pro',
      upgradeUrl: 'https://app.example/pricing',
    });
  });

  it('keeps a 402 that names no plan an ordinary VerdictError, and other errors no plan refusal', async () => {
    const bare = await errorFromResponse(refusal({ code: 'BYOK_REQUIRED', message: 'no hint' }));
    expect(bare).toBeInstanceOf(VerdictError);
    expect(bare).not.toBeInstanceOf(PlanRequiredError);
    expect(bare.name).toBe('VerdictError');
    expect(planRequiredOf(bare)).toBeNull();
    const notFound = new VerdictError({ status: 404, code: 'NOT_FOUND', message: 'gone' });
    expect(planRequiredOf(notFound)).toBeNull();
    expect(planRequiredOf(new Error('BYOK_REQUIRED'))).toBeNull();
    expect(planRequiredOf(undefined)).toBeNull();
  });

  it('reads the same refusal from a tRPC client error, by its appCode and extra fields', () => {
    const shape = (appCode: string, extra: Record<string, unknown>) =>
      TRPCClientError.from({
        error: {
          code: -32002,
          message: MESSAGE,
          data: { code: 'PAYMENT_REQUIRED', httpStatus: 402, appCode, appMessage: MESSAGE, extra },
        },
      });
    expect(
      planRequiredOf(
        shape('BYOK_REQUIRED', { requiredPlan: 'byok_pro', upgradeUrl: 'http://localhost:3000/pricing' }),
      ),
    ).toEqual({ message: MESSAGE, requiredPlan: 'byok_pro', upgradeUrl: 'http://localhost:3000/pricing' });
    expect(planRequiredOf(shape('MONTHLY_LIMIT_REACHED', { upgradeUrl: 'http://x/pricing' }))).toBeNull();
    expect(planRequiredOf(shape('BYOK_REQUIRED', {}))).toBeNull();
  });
});
