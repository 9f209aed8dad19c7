import type { PlanGates } from '../billing/plan-gates.ts';
import { createComments } from '../comments/comments.ts';
import type { Config } from '../config/config.ts';
import type { DebateCreation } from '../debates/creation.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import { createEvidenceReads } from '../evidence/evidence-reads.ts';
import { createNotifications } from '../notifications/notifications.ts';
import { createArgumentGraphs } from '../reactions/argument-graphs.ts';
import { createPolls } from '../reactions/polls.ts';
import { createArgumentVotes } from '../reactions/votes.ts';
import { createForks } from '../sharing/forks.ts';
import { createSharing } from '../sharing/sharing.ts';
import type { ViewCounter } from '../sharing/view-counter.ts';
import type { Adapters } from './adapters.ts';

/**
 * A debate's audience: share links and their page, forks, comments, votes, polls, the argument graph the
 * votes weigh, and who hears of them.
 */
export function audienceServices(
  { db, bus, clock, onError }: Adapters,
  config: Config,
  features: {
    debateAccess: DebateAccess;
    debates: Pick<DebateCreation, 'create'>;
    views: ViewCounter;
    plans: PlanGates;
  },
) {
  const { debateAccess } = features;
  const notifications = createNotifications({ db, clock, bus, onError, linkSecret: config.email.linkSecret });
  // Emails are queued only when the service can send them; the engine nodes' mailer sends them.
  const email = { emailEnabled: config.email.smtpUrl !== null };
  const evidence = createEvidenceReads({ db, debateAccess, plans: features.plans });
  return {
    notifications,
    sharing: createSharing({
      db,
      clock,
      debateAccess,
      views: features.views,
      appUrl: config.appUrl,
      citedEvidence: (id, attempt) => evidence.cited(id, attempt),
    }),
    forks: createForks({
      db,
      clock,
      create: features.debates.create,
      notifications,
      emailEnabled: email.emailEnabled,
    }),
    comments: createComments({ db, clock, debateAccess, notifications, email }),
    argumentVotes: createArgumentVotes({ db, clock, debateAccess }),
    polls: createPolls({ db, clock, debateAccess }),
    argumentGraphs: createArgumentGraphs({ db, debateAccess, plans: features.plans }),
    evidence,
  };
}
