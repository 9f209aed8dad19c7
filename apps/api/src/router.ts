import { attachmentsRouter } from './routers/attachments/index.ts';
import { auditRouter } from './routers/audit/index.ts';
import { authRouter } from './routers/auth/index.ts';
import { billingRouter } from './routers/billing/index.ts';
import { chainsRouter } from './routers/chains/index.ts';
import { collectionsRouter } from './routers/collections/index.ts';
import { commentsRouter } from './routers/comments/index.ts';
import { debatesRouter } from './routers/debates/index.ts';
import { keysRouter } from './routers/keys/index.ts';
import { notificationsRouter } from './routers/notifications/index.ts';
import { outcomesRouter } from './routers/outcomes/index.ts';
import { pollsRouter } from './routers/polls/index.ts';
import { me } from './routers/profile/me.ts';
import { v1Health } from './routers/profile/v1-health.ts';
import { getRecommendations } from './routers/recommendations/get-recommendations.ts';
import { scheduledDebatesRouter } from './routers/scheduled-debates/index.ts';
import { scoresRouter } from './routers/scores/index.ts';
import { searchRouter } from './routers/search/index.ts';
import { sharingRouter } from './routers/sharing/index.ts';
import { findSimilar } from './routers/similar/find-similar.ts';
import { ssoRouter } from './routers/sso/index.ts';
import { getUsage } from './routers/usage/get-usage.ts';
import { createVerdict } from './routers/verdicts/create-verdict.ts';
import { deleteVerdict } from './routers/verdicts/delete-verdict.ts';
import { estimateVerdict } from './routers/verdicts/estimate-verdict.ts';
import { getVerdict } from './routers/verdicts/get-verdict.ts';
import { getVerdictEvidence } from './routers/verdicts/get-verdict-evidence.ts';
import { listVerdicts } from './routers/verdicts/list-verdicts.ts';
import { votesRouter } from './routers/votes/index.ts';
import { webhooksRouter } from './routers/webhooks/index.ts';
import { workspacesRouter } from './routers/workspaces/index.ts';
import { router } from './trpc/init.ts';

export const appRouter = router({
  auth: authRouter,
  keys: keysRouter,
  debates: debatesRouter,
  outcomes: outcomesRouter,
  votes: votesRouter,
  polls: pollsRouter,
  scores: scoresRouter,
  collections: collectionsRouter,
  chains: chainsRouter,
  sharing: sharingRouter,
  comments: commentsRouter,
  notifications: notificationsRouter,
  recommendations: getRecommendations,
  similar: findSimilar,
  search: searchRouter,
  workspaces: workspacesRouter,
  billing: billingRouter,
  audit: auditRouter,
  sso: ssoRouter,
  v1: router({
    me,
    health: v1Health,
    createVerdict,
    estimateVerdict,
    listVerdicts,
    getVerdict,
    getVerdictEvidence,
    deleteVerdict,
    usage: getUsage,
  }),
  scheduledDebates: scheduledDebatesRouter,
  webhooks: webhooksRouter,
  attachments: attachmentsRouter,
});

/** The router type TypeScript clients import for end-to-end types (`createTRPCClient<AppRouter>`). */
export type AppRouter = typeof appRouter;
