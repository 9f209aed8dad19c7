import type { SessionUser } from '@verdict/contracts';
import type { User } from './user.entity.ts';

/** The account as a session shows it to its user. */
export function toSessionUser(user: User): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    plan: user.plan,
    credits: user.creditBalance,
    createdAt: user.createdAt.toISOString(),
  };
}
