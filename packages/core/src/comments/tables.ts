import type { TablesOf } from '../db/kysely.ts';
import type { CommentSchema } from './comment.entity.ts';

/** The tables comments own, for typed queries (db/kysely.ts). */
export type CommentTables = TablesOf<typeof CommentSchema>;
