import type { EntityManager } from '@mikro-orm/core';
import { ATTACHMENTS_PER_DEBATE_MAX } from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { CoreResources } from '../resources.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import { ATTACHMENT_COLUMNS } from './attachment-views.ts';
import type { BlobStore } from './blob-store.ts';
import type { PageFetchOptions } from './page-fetch.ts';
import type { AttachmentTables } from './tables.ts';

/** What the attachments' operations run on. */
export type AttachmentResources = Pick<CoreResources, 'db' | 'clock'> & {
  plans: PlanGates;
  /** Where a file's bytes are kept (rows or files, blob-store.ts). */
  blobs: BlobStore;
  debateAccess: Pick<DebateAccess, 'visible'>;
  /** How a URL attachment's page is fetched: the SSRF guard's rules, sizes and time limits. */
  pageFetch: PageFetchOptions;
};

/** Typed queries on the attachments' tables, the debates they belong to and the accounts that own them. */
export const attachmentQuery = (em: EntityManager) => query<AttachmentTables & AccountTables>(em);

export const invalidFile = (message: string, code: string) =>
  new AppError('VALIDATION_ERROR', `file: ${message}`, { details: [{ path: 'file', message, code }] });

/** The caller's own undeleted debate, locked when `lock` (so counting its attachments is exact). */
export async function ownDebate(em: EntityManager, userId: string, debateId: string, lock: boolean) {
  let select = attachmentQuery(em)
    .selectFrom('debates')
    .select(['id', 'owner_id', 'workspace_id'])
    .where('id', '=', debateId)
    .where('deleted_at', 'is', null);
  if (lock) select = select.forUpdate();
  const debate = await select.executeTakeFirst();
  if (!debate || debate.owner_id !== userId) throw notFound('Debate');
  return debate;
}

/** Adding attachments needs a plan that includes them (BYOK Pro). */
export async function assertPlan(plans: PlanGates, em: EntityManager, userId: string) {
  const user = await attachmentQuery(em)
    .selectFrom('users')
    .select('plan')
    .where('id', '=', userId)
    .executeTakeFirst();
  plans.assertIncludes(user?.plan ?? 'free', 'attachments');
}

/** Refuses a sixth attachment; the debate row is locked, so parallel adds wait and count the same way. */
export async function assertRoom(em: EntityManager, debateId: string) {
  const { count } = await attachmentQuery(em)
    .selectFrom('attachments')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('debate_id', '=', debateId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= ATTACHMENTS_PER_DEBATE_MAX) {
    throw invalidFile(`a debate has at most ${ATTACHMENTS_PER_DEBATE_MAX} attachments`, 'too_many');
  }
}

/** Attachments as their answers show them: the columns and the length of the extracted text. */
export const selectAttachments = (em: EntityManager) =>
  attachmentQuery(em)
    .selectFrom('attachments')
    .select(ATTACHMENT_COLUMNS)
    .select(sql<number | null>`length("text")`.as('text_length'));
