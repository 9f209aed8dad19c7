import type { TablesOf } from '../db/kysely.ts';
import type { ShareLinkSchema } from './share-link.entity.ts';

/** The tables sharing owns, for typed queries (db/kysely.ts). */
export type SharingTables = TablesOf<typeof ShareLinkSchema>;
