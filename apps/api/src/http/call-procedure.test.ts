import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callProcedure, leanChain, type ProcedureDefinition } from './call-procedure.ts';

type Ctx = { user: string; seen?: string[] };
const t = initTRPC.context<Ctx>().create();

/** A chain shaped like the service's: a middleware adding to the context, input, output, resolver. */
const procedure = t.procedure
  .use(async ({ ctx, next, path, type }) => next({ ctx: { endpoint: `${type} ${path}`, by: ctx.user } }))
  .input(z.object({ n: z.number(), fail: z.enum(['no', 'throw', 'trpc', 'shape']).default('no') }))
  .output(z.object({ doubled: z.number(), who: z.string(), endpoint: z.string() }))
  .query(({ ctx, input }) => {
    if (input.fail === 'throw') throw new Error('the resolver broke');
    if (input.fail === 'trpc') throw new TRPCError({ code: 'NOT_FOUND', message: 'no such thing' });
    if (input.fail === 'shape') return { doubled: 'two' } as never;
    // A field the output schema does not name: dropped by output validation.
    return { doubled: input.n * 2, who: ctx.by, endpoint: ctx.endpoint, secret: 'not for callers' };
  });

type TrpcCaller = (opts: object) => Promise<unknown>;
const definition = (procedure as unknown as { _def: ProcedureDefinition })._def;

/** The same call through tRPC's own caller and through callProcedure over the lean chain. */
async function both(input: unknown) {
  const call = {
    ctx: { user: 'ada' },
    getRawInput: async () => input,
    path: 'things.get',
    type: 'query' as const,
    signal: undefined,
    batchIndex: 0,
  };
  const settle = (promise: Promise<unknown>) =>
    promise.then(
      (data) => ({ data }),
      (error: unknown) => ({ error }),
    );
  return {
    trpc: await settle((procedure as unknown as TrpcCaller)(call)),
    lean: await settle(callProcedure(leanChain(definition), call)),
  };
}

const errorOf = (outcome: { error?: unknown; data?: unknown }) => {
  const error = outcome.error as TRPCError;
  return { type: error.constructor, code: error.code, message: error.message, cause: error.cause?.message };
};

describe('callProcedure over the lean chain (REST) and tRPC’s own caller', () => {
  it('replaces exactly the output link, keeping the others as tRPC built them', () => {
    const lean = leanChain(definition);
    expect(lean.middlewares).toHaveLength(definition.middlewares.length);
    const changed = lean.middlewares.filter((middleware, i) => middleware !== definition.middlewares[i]);
    expect(changed).toHaveLength(1);
    expect(definition.middlewares.find((m) => !lean.middlewares.includes(m))?._type).toBe('output');
  });

  it('gives the same data: the context a middleware added, the parsed input, unknown output fields dropped', async () => {
    const { trpc, lean } = await both({ n: 21 });
    expect(lean).toEqual(trpc);
    expect(lean).toEqual({ data: { doubled: 42, who: 'ada', endpoint: 'query things.get' } });
  });

  it('fails the same way on bad input, a thrown error, a TRPCError and an output of the wrong shape', async () => {
    for (const input of [
      { n: 'x' },
      { n: 1, fail: 'throw' },
      { n: 1, fail: 'trpc' },
      { n: 1, fail: 'shape' },
    ]) {
      const { trpc, lean } = await both(input);
      expect(errorOf(lean)).toEqual(errorOf(trpc));
    }
    const shape = await both({ n: 1, fail: 'shape' });
    expect(errorOf(shape.lean)).toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'Output validation failed',
    });
    const thrown = await both({ n: 1, fail: 'throw' });
    expect(errorOf(thrown.lean)).toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      cause: 'the resolver broke',
    });
    expect(errorOf((await both({ n: 'x' })).lean).code).toBe('BAD_REQUEST');
  });

  it('leaves a procedure without output validation as tRPC built it', () => {
    const unchecked = t.procedure.query(() => ({ a: 1 }));
    const def = (unchecked as unknown as { _def: ProcedureDefinition })._def;
    expect(leanChain(def)).toBe(def);
  });
});
