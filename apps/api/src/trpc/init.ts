import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { type ErrorCode, errorStatus } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { authenticate, authenticateIfPresented } from '../auth/authenticate.ts';
import { findNulPath, nulRefused } from '../http/input-guards.ts';
import { routeTemplate } from '../http/route-table.ts';
import { toAppError, trpcCodeForStatus } from './app-errors.ts';
import type { Context } from './context.ts';

export type AuthKind = 'none' | 'user' | 'key' | 'optional';

/**
 * What a route can fail with beyond what every route of its kind can (authentication, rate limits, body
 * parsing, CSRF, 500 — see openapi/route-errors.ts), and what each failure means on this route.
 */
export type RouteErrors = Partial<Record<ErrorCode, string>>;

export type Meta = OpenApiMeta<{
  /** Which credentials the route accepts: none, session cookie or key (/api), key only (/v1). */
  auth?: AuthKind;
  /** REST success status; tRPC keeps 200. */
  successStatus?: 200 | 201 | 204;
  /** Marks the route deprecated: Deprecation, Sunset and Link headers, and `deprecated` in OpenAPI. */
  deprecation?: { sunset: Date; link: string };
  errors?: RouteErrors;
  /** Sends X-RateLimit-* although it takes no credentials (sign-up's per-IP budget). */
  rateLimitHeaders?: boolean;
  /** A route the interface specification does not name: marked as an extension in the document. */
  extension?: boolean;
  /** Its success sets (or clears) the session cookie: Set-Cookie in the document. */
  setsSessionCookie?: boolean;
}>;

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

/** /api routes: an API key when one is presented, else the dashboard session cookie. */
export const userProcedure = base
  .meta({ auth: 'user' })
  .use(async ({ ctx, next }) =>
    next({
      ctx: {
        caller: await authenticate(ctx.services, ctx.req, 'user', ctx.response.headers, {
          endpoint: ctx.endpoint,
        }),
      },
    }),
  )
  .use(refuseNulCharacters);

/**
 * /api reads of public resources: `caller` is who brings a key or session cookie, or null for an anonymous
 * reader (limited per client IP). Bad credentials are still a 401.
 */
export const optionalUserProcedure = base
  .meta({ auth: 'optional' })
  .use(async ({ ctx, next }) =>
    next({
      ctx: {
        caller: await authenticateIfPresented(ctx.services, ctx.req, ctx.response.headers, ctx.endpoint),
      },
    }),
  )
  .use(refuseNulCharacters);

/** /v1 routes: an API key is required. */
export const keyProcedure = base
  .meta({ auth: 'key' })
  .use(async ({ ctx, next }) =>
    next({
      ctx: {
        caller: await authenticate(ctx.services, ctx.req, 'key', ctx.response.headers, {
          endpoint: ctx.endpoint,
        }),
      },
    }),
  )
  .use(refuseNulCharacters);

/**
 * /v1 routes about the calling key itself (GET /v1/usage): they need an API key like keyProcedure's, but a
 * caller signed in with a dashboard session is told so (401 API_KEY_REQUIRED: there is no key context to
 * answer for) instead of being taken for a caller with no credentials (401 UNAUTHORIZED). The session is
 * still checked and counted against its account first, like any authenticated request.
 */
export const callingKeyProcedure = base
  .meta({ auth: 'key' })
  .use(async ({ ctx, next }) => {
    const caller = await authenticate(ctx.services, ctx.req, 'user', ctx.response.headers, {
      endpoint: ctx.endpoint,
    });
    if (!caller.key) {
      throw new AppError('API_KEY_REQUIRED', 'This route answers for an API key: send one, not a session');
    }
    return next({ ctx: { caller: { ...caller, key: caller.key } } });
  })
  .use(refuseNulCharacters);
