import { router } from '../../trpc/init.ts';
import { listAudit } from './list-audit.ts';
import { verifyAudit } from './verify-audit.ts';

export const auditRouter = router({ list: listAudit, verify: verifyAudit });
