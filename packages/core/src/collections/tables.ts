import type { TablesOf } from '../db/kysely.ts';
import type { CollectionSchema } from './collection.entity.ts';
import type { CollectionItemSchema } from './collection-item.entity.ts';

/** The tables collections own, for typed queries (db/kysely.ts). */
export type CollectionTables = TablesOf<typeof CollectionSchema | typeof CollectionItemSchema>;
