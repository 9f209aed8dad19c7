import type { NewUser } from '../accounts/create-user.ts';
import type { IssuedSession, SessionTerms } from '../accounts/sessions.ts';
import type { User } from '../accounts/user.entity.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import type { Config } from '../config/config.ts';
import type { CoreResources } from '../resources.ts';

/** What single sign-on runs on: the database and clock, the plan gate, and the accounts it signs people into. */
export type SsoResources = Pick<CoreResources, 'db' | 'clock'> & {
  plans: PlanGates;
  /** Where this service is reached (the providers send people back there) and the sso section of the config. */
  config: Pick<Config, 'publicBaseUrl' | 'appUrl' | 'sso'>;
  createUser: (input: NewUser) => Promise<User>;
  issueSession: (user: User, terms: SessionTerms) => Promise<IssuedSession>;
};
