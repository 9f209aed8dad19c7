import { WorkspaceSlug } from '@verdict/contracts';
import {
  AppError,
  type Services,
  type SignedIn,
  SsoRefused,
  unexpectedFailure,
  withAuditContext,
} from '@verdict/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestAuditContext } from '../auth/audit-context.ts';
import { SESSION_COOKIE } from '../auth/credentials.ts';
import { zodIssuesToDetails } from '../trpc/app-errors.ts';
import { sendAppError } from './envelope.ts';
import { noteRequestFailure } from './request-log.ts';

export const SSO_PATHS = {
  start: '/api/auth/sso/:slug',
  oidcCallback: '/api/auth/sso/:slug/oidc/callback',
  samlAcs: '/api/auth/sso/:slug/saml/acs',
  samlMetadata: '/api/auth/sso/:slug/saml/metadata',
} as const;

/** The provider's answer posted by a browser from the provider's site: its own checks replace the CSRF guard's. */
export const SSO_ANSWER_PATH = /^\/api\/auth\/sso\/[^/?]*\/saml\/acs(\?|$)/;

/** The cookie that ties a provider's answer to the browser that started the sign-in. */
const BINDING_COOKIE = 'verdict_sso';
const BINDING_PATH = '/api/auth/sso/';

type SlugParams = { Params: { slug: string } };

/** A workspace's slug, and where a sign-in may return to: a path of this site (never `//host`, `/\\host`). */
export const SsoStartInput = z.object({
  slug: WorkspaceSlug,
  returnTo: z
    .string()
    .max(2000)
    .regex(/^\/([^/\\\s][^\s\\]*)?$/, 'A path of this site')
    .optional(),
});

/** 400 VALIDATION_ERROR for a slug that is none, or a return path elsewhere, before anything is looked up. */
function parsed(input: unknown) {
  const result = SsoStartInput.safeParse(input);
  if (result.success) return result.data;
  throw new AppError('VALIDATION_ERROR', 'Request validation failed', {
    details: zodIssuesToDetails(result.error.issues),
  });
}

/** How a sign-in's answer ends: signed in and on the way back, or refused and sent to the sign-in page. */
function ssoAnswers(core: Services) {
  const { config } = core;
  const signInPage = (reason: string) => `${config.appUrl}/sign-in?sso_error=${encodeURIComponent(reason)}`;
  return {
    /**
     * A refusal (recorded in the workspace's trail when the workspace is known) is a redirect with its
     * reason; input refused before anything was looked up is its envelope, like any route's 400; anything
     * else an unexpected failure's 500.
     */
    async refuse(request: FastifyRequest, reply: FastifyReply, error: unknown, workspaceId: string | null) {
      if (error instanceof AppError) return sendAppError(reply, error);
      if (!(error instanceof SsoRefused)) {
        noteRequestFailure(request, error);
        return sendAppError(reply, unexpectedFailure(error));
      }
      if (workspaceId) {
        await withAuditContext(requestAuditContext(request, null), () =>
          core.sso.recordRefusal(workspaceId, error),
        );
      }
      request.log.info({ sso: { reason: error.reason, detail: error.detail } }, 'single sign-on refused');
      return reply.code(303).header('cache-control', 'no-store').redirect(signInPage(error.reason));
    },

    signedIn(reply: FastifyReply, result: SignedIn) {
      void reply.setCookie(SESSION_COOKIE, result.session.token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.secureCookies,
        path: '/',
        expires: result.session.expiresAt,
      });
      void reply.clearCookie(BINDING_COOKIE, { path: BINDING_PATH });
      return reply
        .code(303)
        .header('cache-control', 'no-store')
        .redirect(`${config.appUrl}${result.returnTo}`);
    },
  };
}

type Answers = ReturnType<typeof ssoAnswers>;

/** The provider's answer, as core finishes it: the workspace it names is noted for a refusal's record. */
async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  answers: Answers,
  finish: (onTarget: (target: { workspaceId: string }) => void) => Promise<SignedIn>,
) {
  let workspaceId: string | null = null;
  try {
    const result = await withAuditContext(requestAuditContext(request, null), () =>
      finish((target) => {
        workspaceId = target.workspaceId;
      }),
    );
    return answers.signedIn(reply, result);
  } catch (error) {
    return answers.refuse(request, reply, error, workspaceId);
  }
}

/** GET /api/auth/sso/:slug: to the provider, with the binding cookie (who is signed in now may be linked). */
function registerStart(app: FastifyInstance, core: Services, answers: Answers) {
  // A provider's answer is a top-level navigation from its site: a Lax cookie would not come with a POST.
  const sameSite = core.config.secureCookies ? ('none' as const) : ('lax' as const);
  app.get<SlugParams & { Querystring: { returnTo?: string } }>(SSO_PATHS.start, async (request, reply) => {
    try {
      const { slug, returnTo } = parsed({ ...request.query, ...request.params });
      const token = request.cookies[SESSION_COOKIE];
      const session = token ? await core.accounts.sessionUser(token) : null;
      const started = await core.sso.start(slug, {
        ...(returnTo ? { returnTo } : {}),
        signedInUserId: session?.user.id ?? null,
      });
      void reply.setCookie(BINDING_COOKIE, started.binding, {
        httpOnly: true,
        sameSite,
        secure: core.config.secureCookies,
        path: BINDING_PATH,
        maxAge: 600,
      });
      return reply.code(302).header('cache-control', 'no-store').redirect(started.redirectUrl);
    } catch (error) {
      return answers.refuse(request, reply, error, null);
    }
  });
}

/** The OIDC callback; its code and state are the sign-in's credentials until used: logged as [redacted]. */
function registerOidcCallback(app: FastifyInstance, core: Services, answers: Answers) {
  app.get<SlugParams>(
    SSO_PATHS.oidcCallback,
    { config: { secretParameters: ['code', 'state'] } },
    (request, reply) =>
      answer(request, reply, answers, (onTarget) => {
        const { slug } = parsed(request.params);
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return core.sso.finishOidc(slug, query, request.cookies[BINDING_COOKIE], onTarget);
      }),
  );
}

/** The SAML ACS: a form post (HTTP-POST binding), parsed in this route's scope only. */
async function registerSamlAcs(app: FastifyInstance, core: Services, answers: Answers) {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.post<SlugParams & { Body: { SAMLResponse?: string; RelayState?: string } }>(
      SSO_PATHS.samlAcs,
      (request, reply) =>
        answer(request, reply, answers, (onTarget) => {
          const { slug } = parsed(request.params);
          const form = typeof request.body === 'object' && request.body !== null ? request.body : {};
          return core.sso.finishSaml(slug, form, request.cookies[BINDING_COOKIE], onTarget);
        }),
    );
  });
}

/** This service's SAML metadata for a workspace; 404 where it has no single sign-on. */
function registerSamlMetadata(app: FastifyInstance, core: Services) {
  app.get<SlugParams>(SSO_PATHS.samlMetadata, async (request, reply) => {
    try {
      const { slug } = parsed(request.params);
      const xml = await core.sso.serviceMetadata(slug);
      return reply.code(200).header('content-type', 'application/samlmetadata+xml; charset=utf-8').send(xml);
    } catch (error) {
      if (error instanceof AppError) return sendAppError(reply, error);
      if (error instanceof SsoRefused) {
        return sendAppError(reply, new AppError('NOT_FOUND', 'No single sign-on for this workspace'));
      }
      noteRequestFailure(request, error);
      return sendAppError(reply, unexpectedFailure(error));
    }
  });
}

/**
 * Single sign-on's browser routes: plain routes because they answer with redirects and take a form post,
 * not JSON. Start sends the browser to the workspace's provider; the OIDC callback and the SAML ACS take the
 * provider's answer, and either set the session cookie and send the browser where it was going, or send it
 * to the sign-in page with the refusal's reason (`?sso_error=`), recorded in the workspace's trail. An
 * unexpected failure is a 500 in the envelope, like any route's.
 */
export async function registerSsoRoutes(app: FastifyInstance, core: Services) {
  const answers = ssoAnswers(core);
  registerStart(app, core, answers);
  registerOidcCallback(app, core, answers);
  await registerSamlAcs(app, core, answers);
  registerSamlMetadata(app, core);
}
