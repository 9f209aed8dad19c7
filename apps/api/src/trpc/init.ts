import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { errorStatus } from '@verdict/contracts';
import { AppError, withAuditContext } from '@verdict/core';
import { requestAuditContext } from '../auth/audit-context.ts';
import { authenticate, authenticateIfPresented, type Credentials, openStream } from '../auth/authenticate.ts';
import type { Caller } from '../auth/credentials.ts';
import { toAppError, trpcCodeForStatus } from './app-errors.ts';
import type { Context } from './context.ts';
import { type AuthKind, type Meta, routeTemplate } from './meta.ts';
import { findNulPath, nulRefused } from './nul-characters.ts';
import { rebaseExtra, requestLinks } from './request-links.ts';

/** Interval of a subscription's ping (tRPC's SSE `ping` event). */
const SUBSCRIPTION_PING_MS = 15_000;
/** Silence after which a subscription's client reconnects: two pings and a half missed. */
const SUBSCRIPTION_INACTIVITY_MS = 40_000;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    isDev: false,
    // Subscriptions are served as Server-Sent Events (httpSubscriptionLink). A ping every 15 s keeps proxies and
    // idle timers from closing a quiet stream, as the SSE routes' keep-alives do; a client that hears nothing,
    // not even a ping, for 40 s takes its connection for dead and reconnects, resuming from its last id.
    sse: {
      ping: { enabled: true, intervalMs: SUBSCRIPTION_PING_MS },
      client: { reconnectAfterInactivityMs: SUBSCRIPTION_INACTIVITY_MS },
    },
    errorFormatter: ({ shape, error, ctx }) => {
      const app = toAppError(error);
      const httpStatus = errorStatus(app.code);
      const trpcCode = trpcCodeForStatus(httpStatus);
      return {
        ...shape,
        code: TRPC_ERROR_CODES_BY_KEY[trpcCode],
        message: app.message,
        data: {
          code: trpcCode,
          httpStatus,
          path: shape.data.path,
          appCode: app.code,
          appMessage: app.message,
          details: app.details,
          // Its links (upgradeUrl) on the request's bases, as REST's envelope has them.
          extra: ctx ? rebaseExtra(app.extra, requestLinks(ctx.req, ctx.services.config)) : app.extra,
        },
      };
    },
  });

export const router = t.router;

/** Names the caller of a procedure counted under `endpoint` (or throws 401/429). */
type Identify<C> = (ctx: Context, endpoint: string) => Promise<C>;

/**
 * Every procedure's one middleware, in this order: the success status and deprecation headers; the endpoint
 * a keyed call is counted under in its key's usage (the REST route's template, `/v1/verdicts/:id`, or
 * `/trpc/<procedure>`, each call of a batch on its own, as the rate limit counts them); `identify` naming the
 * caller, counted under that endpoint with its X-RateLimit-* headers (or throwing 401/429), for procedures
 * that take credentials; then the NUL guard: PostgreSQL cannot store a NUL character in text, so input
 * holding one (query, path or body, over REST or tRPC) is refused as invalid before any schema or query
 * sees it; then the procedure runs in the request's audit context (auth/audit-context.ts); last, after a
 * caller's mutation, their write position is noted (read-your-writes on a read replica: core's replica/).
 *
 * One middleware rather than a chain of them: tRPC copies the whole call (and the context) at each link, and
 * on the hot path those copies were a seventh of the CPU of a request.
 */
const entry = <C extends object>(auth: AuthKind, identify?: Identify<C>) =>
  t.procedure.meta({ auth }).use(async ({ ctx, meta, path, type, getRawInput, next }) => {
    if (ctx.transport === 'rest' && meta?.successStatus) ctx.response.status = meta.successStatus;
    if (meta?.deprecation) {
      ctx.response.headers.Deprecation = 'true';
      ctx.response.headers.Sunset = meta.deprecation.sunset.toUTCString();
      ctx.response.headers.Link = `<${meta.deprecation.link}>; rel="deprecation"`;
    }
    const restPath = ctx.transport === 'rest' ? meta?.openapi?.path : undefined;
    const endpoint = restPath ? routeTemplate(restPath) : `/trpc/${path}`;
    const identified = identify ? await identify(ctx, endpoint) : undefined;
    const nulAt = findNulPath(await getRawInput());
    if (nulAt !== null) throw nulRefused(nulAt);
    // The procedure runs in its caller's audit context: each change it records says who and from where.
    const caller = (identified as { caller?: Caller | null } | undefined)?.caller ?? null;
    const result = await withAuditContext(requestAuditContext(ctx.req, caller), () =>
      next({ ctx: { endpoint, ...(identified as C) } }),
    );
    if (type === 'mutation' && caller) await noteCallersWrite(ctx, caller.userId);
    return result;
  });

/**
 * After a caller's mutation (whether it answered success or not: a failure may follow a committed write),
 * the primary's WAL position is noted for their account, so that their next read, on any API process, is
 * served by a replica only once it has replayed this far (nothing without a replica). Not noting it is
 * reported, not answered as the mutation's failure: the write stands, and a retry would repeat it.
 */
async function noteCallersWrite(ctx: Context, userId: string) {
  await ctx.services.reads.noteWrite(userId).catch((error: unknown) => {
    ctx.req.log.warn({ err: error }, 'the write position of a caller could not be noted');
  });
}

export const publicProcedure = entry('none');

/** A procedure that takes credentials: `identify` names the caller. */
const authenticated = <C>(auth: AuthKind, identify: Identify<C>) =>
  entry(auth, async (ctx, endpoint) => ({ caller: await identify(ctx, endpoint) }));

const withCredentials =
  (credentials: Credentials): Identify<Caller> =>
  (ctx, endpoint) =>
    authenticate(ctx.services, ctx.req, credentials, ctx.response.headers, { endpoint });

/** /api routes: an API key when one is presented, else the dashboard session cookie. */
export const userProcedure = authenticated('user', withCredentials('user'));

/**
 * /api reads of public resources: `caller` is who brings a key or session cookie, or null for an anonymous
 * reader (limited per client IP). Bad credentials are still a 401.
 */
export const optionalUserProcedure = authenticated('optional', (ctx, endpoint) =>
  authenticateIfPresented(ctx.services, ctx.req, ctx.response.headers, endpoint),
);

/**
 * Subscriptions (tRPC over SSE), as /api's stream routes take them: an API key or the session cookie, the open
 * counted against the account's budget of stream opens, not its requests (a client that spent its request
 * budget can still resume). `notStreamed` is for a subscription that turns out to send nothing (a resume after
 * the final event): its open is given back and it is counted as a request instead.
 */
export const userStreamProcedure = entry('user', (ctx, endpoint) =>
  openStream(ctx.services, ctx.req, 'user', ctx.response.headers, endpoint),
);

/** /v1 routes: an API key is required. */
export const keyProcedure = authenticated('key', withCredentials('key'));

/**
 * /v1 routes about the calling key itself (GET /v1/usage): they need an API key like keyProcedure's, but a
 * caller signed in with a dashboard session is told so (401 API_KEY_REQUIRED: there is no key context to
 * answer for) instead of being taken for a caller with no credentials (401 UNAUTHORIZED). The session is
 * still checked and counted against its account first, like any authenticated request.
 */
export const callingKeyProcedure = authenticated('key', async (ctx, endpoint) => {
  const caller = await withCredentials('user')(ctx, endpoint);
  if (!caller.key) {
    throw new AppError('API_KEY_REQUIRED', 'This route answers for an API key: send one, not a session');
  }
  return { ...caller, key: caller.key };
});
