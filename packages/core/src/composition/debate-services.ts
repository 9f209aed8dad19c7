import { debateAttachments } from '../attachments/debate-attachments.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import type { Collections } from '../collections/collections.ts';
import type { Config } from '../config/config.ts';
import { createDebateCreation } from '../debates/creation.ts';
import { createDebateAccess } from '../debates/debate-access.ts';
import { createDebateAnalytics } from '../debates/debate-analytics.ts';
import { createDebateControl } from '../debates/debate-control.ts';
import { createDebateCosts } from '../debates/debate-costs.ts';
import { createDebateEvents } from '../debates/debate-events.ts';
import { createDebateReads } from '../debates/debate-reads.ts';
import { createWorkspaceDebates } from '../debates/workspace-debates.ts';
import { refreshScore } from '../outcomes/scores.ts';
import type { Adapters } from './adapters.ts';

/**
 * The debates themselves as one named group of operations (`services.debates.create`, `.list`, `.command`
 * …), and beside it the two parts other features and the streams' edge build on: who may read a debate
 * (debateAccess) and its events, stored and live (debateEvents).
 */
export function debateServices(
  { db, reads: readRouting, bus, clock, onError, blobs }: Adapters,
  config: Config,
  features: { collections: Collections; plans: PlanGates },
) {
  const debateAccess = createDebateAccess(db);
  // A deleted debate (alone, or with its workspace) leaves its collections, which close the gap, and its
  // outcome leaves its owner's score at once (the outcome row goes with the debate): in the same transaction.
  const removal = { beforeRemoval: features.collections.dropDebates, afterRemoval: refreshScore };
  const attachments = debateAttachments({ clock, blobs, plans: features.plans });
  const creation = createDebateCreation({ db, bus, clock, config, onError, attachments });
  const reads = createDebateReads({ db, reads: readRouting, clock, access: debateAccess });
  const control = createDebateControl({ db, bus, clock, access: debateAccess, hooks: removal });
  const inWorkspaces = createWorkspaceDebates({
    db,
    bus,
    clock,
    access: debateAccess,
    upgradeUrl: features.plans.upgradeUrl,
    hooks: removal,
  });
  return {
    debateAccess,
    debateEvents: createDebateEvents({ db, bus, onError }),
    debates: {
      create: creation.create,
      estimate: creation.estimate,
      retry: creation.retry,
      list: reads.list,
      softDelete: reads.softDelete,
      removePermanently: control.removePermanently,
      command: control.command,
      inspect: control.inspect,
      analytics: createDebateAnalytics({ db, reads: readRouting, access: debateAccess }),
      costBreakdown: createDebateCosts({ db, access: debateAccess }),
      moveToWorkspace: inWorkspaces.move,
      removeWithWorkspace: inWorkspaces.removeWorkspace,
    },
  };
}
