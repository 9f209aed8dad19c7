import type { TablesOf } from '../db/kysely.ts';
import type { DebateSchema } from '../debates/debate.entity.ts';
import type { AttachmentSchema } from './attachment.entity.ts';
import type { AttachmentBlobSchema } from './attachment-blob.entity.ts';

/** The tables of attachments (and the debates they belong to), for typed queries (db/kysely.ts). */
export type AttachmentTables = TablesOf<
  typeof AttachmentSchema | typeof AttachmentBlobSchema | typeof DebateSchema
>;
