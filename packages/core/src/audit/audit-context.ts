import { AsyncLocalStorage } from 'node:async_hooks';

/** Who made a change: a person signed in, an API key (and its owner), an operator command, or the service. */
export type AuditActor =
  | { kind: 'user'; userId: string }
  | { kind: 'key'; userId: string; keyId: string }
  | { kind: 'operator'; command: string }
  | { kind: 'system'; source: string };

/** Where the request that made a change came from; nulls outside a request (an operator command, a job). */
export type AuditOrigin = { ip: string | null; userAgent: string | null; requestId: string | null };

/** What a change's audit entry takes from the request around it rather than from the operation. */
export type AuditContext = { actor: AuditActor | null; origin: AuditOrigin };

const NO_ORIGIN: AuditOrigin = { ip: null, userAgent: null, requestId: null };

/**
 * The request's actor and origin, set once where a request (or operator command) enters — the tRPC
 * middleware, the admin channel — rather than passed through every operation: the operations that change
 * something record what changed, and the entry learns who and from where here.
 */
const current = new AsyncLocalStorage<AuditContext>();

export const withAuditContext = <T>(context: AuditContext, run: () => T): T => current.run(context, run);

/** The context of the change being made; a change made outside any (a background job) is the service's. */
export const auditContext = (): AuditContext => current.getStore() ?? { actor: null, origin: NO_ORIGIN };
