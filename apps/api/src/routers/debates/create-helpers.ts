import type { CreatedDebate } from '@verdict/contracts';
import { AppError, type CreationResult, type DebateRequest, parseProviderKeysHeader } from '@verdict/core';
import type { Caller } from '../../auth/credentials.ts';
import type { Context } from '../../trpc/context.ts';
import { requestLinks } from '../../trpc/request-links.ts';

/** Idempotency-Key: an opaque string of 1–200 printable characters. */
export function idempotencyKeyOf(ctx: Context): string | null {
  const value = ctx.req.headers['idempotency-key'];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(value)) {
    throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 1–200 printable characters', {
      details: [{ path: 'Idempotency-Key', message: 'invalid header', code: 'invalid_header' }],
    });
  }
  return value;
}

export function providerKeysOf(ctx: Context) {
  const header = ctx.req.headers['x-provider-keys'];
  return parseProviderKeysHeader(Array.isArray(header) ? header.join(',') : header);
}

/** The creating key's routing choices travel with the debate; provider keys never do. */
export function routingOf(caller: Caller): DebateRequest['routing'] {
  const config = caller.key?.config;
  if (!config) return null;
  return {
    preset: config.preset,
    routingOverrides: config.routingOverrides,
    allowedProviders: config.allowedProviders,
  };
}

/** The create response: the stream to follow, and on the free plan the judge the debate gets. */
export function createdResponse(ctx: Context, result: CreationResult, streamPath: string): CreatedDebate {
  const response: CreatedDebate = {
    debateId: result.debateId,
    streamUrl: `${requestLinks(ctx.req, ctx.services.config).api}${streamPath}`,
    cached: result.cached,
  };
  if (result.judgeModel !== null) response.judgeModel = result.judgeModel;
  return response;
}
