import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { errorStatus } from '@verdict/contracts';
import { AppError, rateLimitedError, rateLimitHeaders } from '@verdict/core';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { toAppError, trpcCodeForStatus } from './app-errors.ts';
import { type Caller, type Context, presentedKey, SESSION_COOKIE } from './context.ts';

export type AuthKind = 'none' | 'user' | 'key';

export type Meta = OpenApiMeta<{
  /** Which credentials the route accepts: none, session cookie or key (/api), key only (/v1). */
  auth?: AuthKind;
  /** REST success status; tRPC keeps 200. */
  successStatus?: 200 | 201 | 204;
  /** Marks the route deprecated: Deprecation, Sunset and Link headers, and `deprecated` in OpenAPI. */
  deprecation?: { sunset: Date; link: string };
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
export const createCallerFactory = t.createCallerFactory;

/** Status, deprecation headers: what every procedure does regardless of auth. */
const base = t.procedure.use(({ ctx, meta, next }) => {
  if (ctx.transport === 'rest' && meta?.successStatus) ctx.response.status = meta.successStatus;
  if (meta?.deprecation) {
    ctx.response.headers.Deprecation = 'true';
    ctx.response.headers.Sunset = meta.deprecation.sunset.toUTCString();
    ctx.response.headers.Link = `<${meta.deprecation.link}>; rel="deprecation"`;
  }
  return next();
});

async function authenticateKey(ctx: Context, raw: string): Promise<Caller> {
  const principal = await ctx.core.apiKeys.authenticate(raw);
  if (!principal) throw new AppError('UNAUTHORIZED', 'Invalid or revoked API key');
  const decision = await ctx.core.rateLimits.hitKey(
    principal.keyId,
    principal.plan,
    principal.config?.rateLimit ?? null,
  );
  Object.assign(ctx.response.headers, rateLimitHeaders(decision));
  if (!decision.allowed) throw rateLimitedError(decision);
  return { userId: principal.userId, key: principal, sessionToken: null };
}

async function authenticateSession(ctx: Context): Promise<Caller | null> {
  const token = ctx.req.cookies[SESSION_COOKIE];
  if (!token) return null;
  const session = await ctx.core.accounts.sessionUser(token);
  return session ? { userId: session.user.id, key: null, sessionToken: token } : null;
}

export const publicProcedure = base.meta({ auth: 'none' });

/** /api routes: an API key when one is presented, else the dashboard session cookie. */
export const userProcedure = base.meta({ auth: 'user' }).use(async ({ ctx, next }) => {
  const raw = presentedKey(ctx.req);
  const caller = raw ? await authenticateKey(ctx, raw) : await authenticateSession(ctx);
  if (!caller) throw new AppError('UNAUTHORIZED', 'Sign in or send an API key');
  return next({ ctx: { caller } });
});

/** /v1 routes: an API key is required. */
export const keyProcedure = base.meta({ auth: 'key' }).use(async ({ ctx, next }) => {
  const raw = presentedKey(ctx.req);
  if (!raw) throw new AppError('UNAUTHORIZED', 'Send an API key as Authorization: Bearer or X-Api-Key');
  return next({ ctx: { caller: await authenticateKey(ctx, raw) } });
});
