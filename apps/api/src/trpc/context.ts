import type { Services } from '@verdict/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type Context = {
  /** The domain services; procedures never see the database or the bus behind them. */
  services: Services;
  req: FastifyRequest;
  reply: FastifyReply;
  /** REST answers with the procedure's own success status; tRPC always 200 (its client expects it). */
  transport: 'rest' | 'trpc';
  /** Status and headers collected while the procedure runs, applied by responseMeta, errors included. */
  response: { status: number | undefined; headers: Record<string, string> };
};

export function contextFactory(services: Services, transport: Context['transport']) {
  return ({ req, res }: { req: FastifyRequest; res: FastifyReply }): Context => ({
    services,
    req,
    reply: res,
    transport,
    response: { status: undefined, headers: {} },
  });
}
