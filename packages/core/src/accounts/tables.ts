import type { TablesOf } from '../db/kysely.ts';
import type { SessionSchema } from './session.entity.ts';
import type { UserSchema } from './user.entity.ts';

/** The tables accounts own, for typed queries (db/kysely.ts). */
export type AccountTables = TablesOf<typeof UserSchema | typeof SessionSchema>;
