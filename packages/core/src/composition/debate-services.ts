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

/** The debates themselves: who may read one, reads, events, creation and retry, control, deletion. */
export function debateServices(
  { db, bus, clock, onError, blobs }: Adapters,
  config: Config,
  features: { collections: Collections; plans: PlanGates },
) {
  const debateAccess = createDebateAccess(db);
  // A deleted debate (alone, or with its workspace) leaves its collections, which close the gap, and its
  // outcome leaves its owner's score at once (the outcome row goes with the debate): in the same transaction.
  const removal = { beforeRemoval: features.collections.dropDebates, afterRemoval: refreshScore };
  return {
    debateAccess,
    debateReads: createDebateReads(db, clock, debateAccess),
    debateEvents: createDebateEvents({ db, bus, onError }),
    debateCreation: createDebateCreation(
      db,
      bus,
      clock,
      config,
      onError,
      debateAttachments({ clock, blobs, plans: features.plans }),
    ),
    debateControl: createDebateControl(debateAccess, bus, db, removal),
    debateAnalytics: createDebateAnalytics(db, debateAccess),
    debateCosts: createDebateCosts(db, debateAccess),
    workspaceDebates: createWorkspaceDebates({
      db,
      bus,
      access: debateAccess,
      upgradeUrl: features.plans.upgradeUrl,
      hooks: removal,
    }),
  };
}
