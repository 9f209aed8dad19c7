import type { AuditResources } from './audit-resources.ts';
import { exportAuditEntries } from './export-audit-entries.ts';
import { listAuditEntries } from './list-audit-entries.ts';
import { verifyAuditTrail } from './verify-audit-trail.ts';

export type { AuditResources } from './audit-resources.ts';

export type AuditTrail = ReturnType<typeof createAuditTrail>;

/**
 * Reading the audit trails: a page of one (`list`), its verification (`verify`) and all of it as a stream
 * (`export`), each for whoever may read that trail on a plan with audit logs (audit-access.ts). Writing is
 * recordAudit's, inside each change's transaction.
 */
export function createAuditTrail(resources: AuditResources) {
  return {
    list: listAuditEntries(resources),
    verify: verifyAuditTrail(resources),
    export: exportAuditEntries(resources),
  };
}
