import type { AuditContext } from '@verdict/core';
import type { FastifyRequest } from 'fastify';
import type { Caller } from './credentials.ts';

/**
 * Who a request's changes are recorded as made by (its key and the key's owner, or the person signed in;
 * null before anyone is identified) and where it came from: the client's address, its user agent, and the
 * id the response's X-Request-Id carries (server.ts), so an entry can be matched to its request's log line.
 */
export const requestAuditContext = (req: FastifyRequest, caller: Caller | null): AuditContext => ({
  actor:
    caller === null
      ? null
      : caller.key
        ? { kind: 'key', userId: caller.userId, keyId: caller.key.keyId }
        : { kind: 'user', userId: caller.userId },
  origin: { ip: req.ip, userAgent: req.headers['user-agent'] ?? null, requestId: String(req.id) },
});
