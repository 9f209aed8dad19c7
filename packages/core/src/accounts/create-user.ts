import { randomUUID } from 'node:crypto';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Plan } from '@verdict/contracts';
import { changesOf } from '../audit/audit-changes.ts';
import { auditContext } from '../audit/audit-context.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../shared/app-error.ts';
import type { AccountResources } from './account-resources.ts';
import { assertAcceptablePassword } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import { User } from './user.entity.ts';
import { insertUser } from './user-record.ts';

export type NewUser = {
  email: string;
  name: string;
  password?: string | undefined;
  plan?: Plan;
  /** More to store with the account, in its transaction (single sign-on links the identity that made it). */
  alongside?: (em: EntityManager, userId: string) => Promise<void>;
};

const conflict = (cause?: unknown) =>
  new AppError('CONFLICT', 'An account with this email already exists', { cause });

/** A new account. Cheap checks first (policy, email taken), so a refused sign-up never costs a password hash. */
export const createUser =
  ({ db, clock, hooks }: AccountResources) =>
  async (input: NewUser): Promise<User> => {
    const email = input.email.toLowerCase();
    if (input.password !== undefined) assertAcceptablePassword(input.password);
    if (await db.em().findOne(User, { email }, { fields: ['id'] })) throw conflict();
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    const id = randomUUID();
    const at = new Date(clock.now());
    const plan = input.plan ?? 'free';
    try {
      await db.em().transactional(async (em) => {
        await insertUser(em, { id, email, name: input.name, passwordHash, plan, at });
        await hooks.onAccountCreated(em, id, at);
        await input.alongside?.(em, id);
        // A sign-up has no caller yet: the new account made itself. An operator's create-user names the operator.
        await recordAudit(em, clock, {
          owner: { accountId: id },
          action: 'account.create',
          target: { type: 'account', id },
          changes: changesOf(null, { email, name: input.name, plan }),
          actor: auditContext().actor ?? { kind: 'user', userId: id },
        });
      });
    } catch (err) {
      // Two sign-ups of one email racing past the check above.
      if (err instanceof UniqueConstraintViolationException) throw conflict(err);
      throw err;
    }
    // Read back: what the hook gave the account (its first credits) is part of what the caller sees.
    return db.em().findOneOrFail(User, { id });
  };
