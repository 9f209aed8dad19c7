import type { EntityManager } from '@mikro-orm/core';
import type { CoreResources } from '../resources.ts';

export type AccountHooks = {
  /** Runs in the transaction that creates an account (billing gives it its first credits). */
  onAccountCreated: (em: EntityManager, userId: string, at: Date) => Promise<unknown>;
  /**
   * Runs in the transaction of a session a right password opens, before it is stored: single sign-on
   * refuses one to the members a workspace requires it of (and records an owner's break-glass sign-in).
   */
  onPasswordSignIn: (em: EntityManager, userId: string) => Promise<void>;
};

/** What accounts and their sessions run on. */
export type AccountResources = Pick<CoreResources, 'db' | 'clock'> & {
  /** How long a dashboard session lasts (SESSION_TTL). */
  sessionTtlMs: number;
  hooks: AccountHooks;
};
