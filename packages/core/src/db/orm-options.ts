import type { EntitySchema } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { migrations } from './migrations/index.ts';

/** The entities the ORM maps: the domain's list (src/entities.ts), handed down by the one who opens it. */
export type Entities = readonly (EntitySchema | (abstract new (...args: never[]) => object))[];

/**
 * MikroORM options both drivers share. Without entities (preparing the embedded template) the ORM only
 * runs migrations, which are plain SQL.
 */
export const ormOptions = (entities: Entities) => ({
  entities: [...entities],
  extensions: [Migrator],
  // Each migration commits on its own: one that must not hold its locks for its whole run (0040, which says
  // `isTransactional() false`) runs on a connection of its own, and must see the tables of those before it.
  migrations: { migrationsList: migrations, transactional: true, allOrNothing: false, snapshot: false },
  // Entities are defined with defineEntity; no reflection or folder scanning is needed.
  discovery: { warnWhenNoEntities: entities.length > 0 },
  allowGlobalContext: false,
  debug: false,
  colors: false,
});
