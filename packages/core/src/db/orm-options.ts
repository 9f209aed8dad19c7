import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';

/** MikroORM options both drivers share. */
export const ormOptions = {
  entities,
  extensions: [Migrator],
  migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
  // Entities are defined with defineEntity; no reflection or folder scanning is needed.
  discovery: { warnWhenNoEntities: true },
  allowGlobalContext: false,
  debug: false,
  colors: false,
};
