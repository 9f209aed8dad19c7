import type { AuditVerification, AuditVerifyQuery } from '@verdict/contracts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { readableChain } from './audit-access.ts';
import type { AuditResources } from './audit-resources.ts';

/** Walks a trail the caller may read (audit-access.ts) and says whether it holds, or where it breaks. */
export const verifyAuditTrail =
  ({ db, plans }: AuditResources) =>
  async (userId: string, { workspaceId }: AuditVerifyQuery): Promise<AuditVerification> => {
    const em = db.em();
    return verifyAuditChain(em, await readableChain(em, plans, userId, workspaceId));
  };
