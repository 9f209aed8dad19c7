import type { TablesOf } from '../db/kysely.ts';
import type { SsoConnectionSchema } from './sso-connection.entity.ts';
import type { SsoIdentitySchema } from './sso-identity.entity.ts';
import type { SsoRequestSchema } from './sso-request.entity.ts';

/** The tables single sign-on owns, for typed queries (db/kysely.ts). */
export type SsoTables = TablesOf<
  typeof SsoConnectionSchema | typeof SsoIdentitySchema | typeof SsoRequestSchema
>;
