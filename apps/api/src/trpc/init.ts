import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { errorStatus } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import { authenticate, authenticateIfPresented, type Credentials } from '../auth/authenticate.ts';
import { toAppError, trpcCodeForStatus } from './app-errors.ts';
import type { Context } from './context.ts';
import { type AuthKind, type Meta, routeTemplate } from './meta.ts';
import { findNulPath, nulRefused } from './nul-characters.ts';

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    isDev: false,
    errorFormatter: ({ shape, error }) => {
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
          extra: app.extra,
        },
      };
    },
  });

export const router = t.router;

/**
 * Status, deprecation headers, and the endpoint a keyed call is counted under in its key's usage: the REST
 * route's template (`/v1/verdicts/:id`), or `/trpc/<procedure>` (each call of a batch on its own, as the rate
 * limit counts them). What every procedure does regardless of auth.
 */
const base = t.procedure.use(({ ctx, meta, path, next }) => {
  if (ctx.transport === 'rest' && meta?.successStatus) ctx.response.status = meta.successStatus;
  if (meta?.deprecation) {
    ctx.response.headers.Deprecation = 'true';
    ctx.response.headers.Sunset = meta.deprecation.sunset.toUTCString();
    ctx.response.headers.Link = `<${meta.deprecation.link}>; rel="deprecation"`;
  }
  const restPath = ctx.transport === 'rest' ? meta?.openapi?.path : undefined;
  return next({ ctx: { endpoint: restPath ? routeTemplate(restPath) : `/trpc/${path}` } });
});

/**
 * PostgreSQL cannot store a NUL character in text: input holding one (query, path or body, over REST or
 * tRPC) is refused as invalid before any schema or query sees it.
 */
const refuseNulCharacters = t.middleware(async ({ getRawInput, next }) => {
  const path = findNulPath(await getRawInput());
  if (path !== null) throw nulRefused(path);
  return next();
});

export const publicProcedure = base.meta({ auth: 'none' }).use(refuseNulCharacters);

type BaseContext = Context & { endpoint: string };

/**
 * A procedure that takes credentials: `identify` names the caller (or throws 401/429), counted under the
 * procedure's endpoint with its X-RateLimit-* headers; then the NUL guard, as for every procedure.
 */
const authenticated = <C>(auth: AuthKind, identify: (ctx: BaseContext) => Promise<C>) =>
  base
    .meta({ auth })
    .use(async ({ ctx, next }) => next({ ctx: { caller: await identify(ctx) } }))
    .use(refuseNulCharacters);

const withCredentials = (credentials: Credentials) => (ctx: BaseContext) =>
  authenticate(ctx.services, ctx.req, credentials, ctx.response.headers, { endpoint: ctx.endpoint });

/** /api routes: an API key when one is presented, else the dashboard session cookie. */
export const userProcedure = authenticated('user', withCredentials('user'));

/**
 * /api reads of public resources: `caller` is who brings a key or session cookie, or null for an anonymous
 * reader (limited per client IP). Bad credentials are still a 401.
 */
export const optionalUserProcedure = authenticated('optional', (ctx) =>
  authenticateIfPresented(ctx.services, ctx.req, ctx.response.headers, ctx.endpoint),
);

/** /v1 routes: an API key is required. */
export const keyProcedure = authenticated('key', withCredentials('key'));

/**
 * /v1 routes about the calling key itself (GET /v1/usage): they need an API key like keyProcedure's, but a
 * caller signed in with a dashboard session is told so (401 API_KEY_REQUIRED: there is no key context to
 * answer for) instead of being taken for a caller with no credentials (401 UNAUTHORIZED). The session is
 * still checked and counted against its account first, like any authenticated request.
 */
export const callingKeyProcedure = authenticated('key', async (ctx) => {
  const caller = await withCredentials('user')(ctx);
  if (!caller.key) {
    throw new AppError('API_KEY_REQUIRED', 'This route answers for an API key: send one, not a session');
  }
  return { ...caller, key: caller.key };
});
