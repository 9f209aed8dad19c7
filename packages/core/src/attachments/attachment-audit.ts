import type { EntityManager } from '@mikro-orm/core';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { debateAuditOwner } from '../debates/debate-audit.ts';
import type { Clock } from '../shared/clock.ts';
import type { AttachmentRow } from './attachment-views.ts';

/** The debate an attachment is on, as ownDebate read it: whose trail its entries go to. */
type OnDebate = { owner_id: string; workspace_id: string | null };

const ownerOf = (debate: OnDebate) =>
  debateAuditOwner({ workspaceId: debate.workspace_id, ownerId: debate.owner_id });

/** An attachment added (an upload or a fetched page): its name, kind, size and type, never its content. */
export const recordAttachmentCreated = (
  em: EntityManager,
  clock: Clock,
  debate: OnDebate,
  row: AttachmentRow,
) =>
  recordAudit(em, clock, {
    owner: ownerOf(debate),
    action: 'attachment.create',
    target: { type: 'attachment', id: row.id },
    changes: changesOf(null, {
      debateId: row.debate_id,
      filename: row.filename,
      kind: row.kind,
      size: row.size,
      contentType: row.content_type,
    }),
  });

export const recordAttachmentDeleted = (em: EntityManager, clock: Clock, debate: OnDebate, id: string) =>
  recordAudit(em, clock, {
    owner: ownerOf(debate),
    action: 'attachment.delete',
    target: { type: 'attachment', id },
  });
