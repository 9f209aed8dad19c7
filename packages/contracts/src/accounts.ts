import { z } from 'zod';
import { Plan } from './plans.ts';
import { hasVisibleCharacter, visibleText } from './text.ts';

/** An email address, compared and stored lower-cased. */
export const Email = z
  .email()
  .max(254)
  .transform((email) => email.toLowerCase());

export const MIN_PASSWORD_LENGTH = 10;

/** At least 10 characters, at least one of them visible; the server also refuses the most common ones. */
export const NewPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { abort: true })
  .max(200)
  .refine(hasVisibleCharacter, { message: 'Must contain visible characters' });

export const RegisterInput = z.strictObject({
  email: Email,
  password: NewPassword,
  name: visibleText(1, 100),
});
export type RegisterInput = z.infer<typeof RegisterInput>;

export const LoginInput = z.strictObject({ email: Email, password: z.string().min(1).max(200) });
export type LoginInput = z.infer<typeof LoginInput>;

/** The signed-in user, as the dashboard sees it. */
export const SessionUser = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    plan: Plan,
    credits: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'SessionUser' });
export type SessionUser = z.infer<typeof SessionUser>;

export const SessionInfo = z
  .object({ user: SessionUser, expiresAt: z.iso.datetime() })
  .meta({ id: 'Session' });
export type SessionInfo = z.infer<typeof SessionInfo>;

/**
 * GET /api/auth/state: who the session cookie signs in, answered 200 either way. `signedIn` tells the two
 * apart; only a signed-in answer has a `user` and `expiresAt`, as GET /api/auth/session gives them.
 *
 * @example
 * const state = SignInState.parse(await (await fetch('/api/auth/state')).json());
 * const user = state.signedIn ? state.user : null;
 */
export const SignInState = z
  .union([
    z.object({ signedIn: z.literal(false) }).meta({ id: 'SignedOut' }),
    SessionInfo.extend({ signedIn: z.literal(true) }).meta({ id: 'SignedIn' }),
  ])
  .meta({ id: 'SignInState' });
export type SignInState = z.infer<typeof SignInState>;

/** GET /v1/me. */
export const Profile = z
  .object({ id: z.uuid(), name: z.string(), email: z.string(), plan: Plan, createdAt: z.iso.datetime() })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof Profile>;
