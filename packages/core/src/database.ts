import type { Config } from './config/config.ts';
import { type Database, type OpenDatabaseOptions, openDatabase } from './db/orm.ts';
import { entities } from './entities.ts';

/** The service's database with every entity of the domain, for processes that need it without a Core. */
export const openServiceDatabase = (
  config: Config['database'],
  options: Omit<OpenDatabaseOptions, 'entities'> = {},
): Promise<Database> => openDatabase(config, { ...options, entities });
