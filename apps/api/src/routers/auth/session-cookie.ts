import type { IssuedSession } from '@verdict/core';
import { SESSION_COOKIE } from '../../auth/credentials.ts';
import type { Context } from '../../trpc/context.ts';

export function setSessionCookie(ctx: Context, session: IssuedSession) {
  void ctx.reply.setCookie(SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.services.config.secureCookies,
    path: '/',
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(ctx: Context) {
  void ctx.reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
