import type { EntityManager } from '@mikro-orm/core';
import type { PlanGates } from '../billing/plan-gates.ts';
import { planOf } from '../debates/creation/funding.ts';
import type { DebateAttachments } from '../debates/creation/request.ts';
import { assertReady } from './assert-ready.ts';
import type { AttachmentResources } from './attachment-resources.ts';
import { copyToDebate } from './copy-to-debate.ts';

/**
 * How a create's attachmentIds reach its debate (POST /api/debates and its estimate): the owner's plan must
 * include attachments (BYOK Pro and above), then the caller's own ready attachments are copied onto the
 * debate in its transaction, or for an estimate checked without a write.
 */
export const debateAttachments = (
  resources: Pick<AttachmentResources, 'clock' | 'blobs'> & { plans: PlanGates },
): DebateAttachments => {
  const copy = copyToDebate(resources);
  return {
    assertAllowed: async (em: EntityManager, ownerId: string) => {
      resources.plans.assertIncludes(await planOf(em, ownerId), 'attachments');
    },
    copy,
    check: assertReady,
  };
};
