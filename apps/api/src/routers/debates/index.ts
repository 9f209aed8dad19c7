import { router } from '../../trpc/init.ts';
import { createDebate } from './create-debate.ts';
import { deleteDebate } from './delete-debate.ts';
import { estimateDebate } from './estimate-debate.ts';
import { forkDebate } from './fork-debate.ts';
import { getAnalytics } from './get-analytics.ts';
import { getArgumentGraph } from './get-argument-graph.ts';
import { getCost } from './get-cost.ts';
import { getDebate } from './get-debate.ts';
import { getEvidence } from './get-evidence.ts';
import { getFullVerdict } from './get-full-verdict.ts';
import { getStateChart } from './get-statechart.ts';
import { listDebates } from './list-debates.ts';
import { moveDebate } from './move-debate.ts';
import { retryDebate } from './retry-debate.ts';
import { sendCommand } from './send-command.ts';
import { setVisibility } from './set-visibility.ts';
import { streamDebate } from './stream-debate.ts';

export const debatesRouter = router({
  create: createDebate,
  estimate: estimateDebate,
  list: listDebates,
  get: getDebate,
  verdict: getFullVerdict,
  delete: deleteDebate,
  command: sendCommand,
  statechart: getStateChart,
  retry: retryDebate,
  fork: forkDebate,
  analytics: getAnalytics,
  argumentGraph: getArgumentGraph,
  evidence: getEvidence,
  cost: getCost,
  setVisibility,
  moveToWorkspace: moveDebate,
  stream: streamDebate,
});
