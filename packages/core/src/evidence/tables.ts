import type { AttachmentSchema } from '../attachments/attachment.entity.ts';
import type { TablesOf } from '../db/kysely.ts';
import type { DebateSchema } from '../debates/debate.entity.ts';
import type { EvidencePassageSchema } from './evidence-passage.entity.ts';

/** The corpus's table and the ones it is built from (a debate's context, its attachments), for typed queries. */
export type EvidenceTables = TablesOf<
  typeof EvidencePassageSchema | typeof AttachmentSchema | typeof DebateSchema
>;
