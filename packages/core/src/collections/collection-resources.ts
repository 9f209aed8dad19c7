import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { CoreResources } from '../resources.ts';
import type { CollectionTables } from './tables.ts';

/** What the collections' operations use of core's resources. */
export type CollectionResources = Pick<CoreResources, 'db' | 'clock'>;

/** Typed queries on the collections' tables, on `em` (a transaction's) or the request's own. */
export const collectionQuery = (em: EntityManager) => query<CollectionTables>(em);
