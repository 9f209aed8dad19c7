import type { DebateEvidence } from '@verdict/contracts';
import { type EvidenceReadResources, evidenceOf, evidenceQuery } from './evidence-read-resources.ts';

/** A debate's evidence for whoever may read it, on a plan with the evidence engine (the caller's plan). */
export const readEvidence =
  ({ db, debateAccess, plans }: EvidenceReadResources) =>
  async (userId: string, debateId: string): Promise<DebateEvidence> => {
    const debate = await debateAccess.visible(userId, debateId);
    const user = await evidenceQuery(db.em())
      .selectFrom('users')
      .select('plan')
      .where('id', '=', userId)
      .executeTakeFirst();
    plans.assertIncludes(user?.plan ?? 'free', 'evidence');
    const on = debate.evidenceEngine;
    return {
      debateId,
      status: debate.status,
      attempt: debate.attempt,
      evidence: on ? 'on' : 'off',
      passages: on ? await evidenceOf(db, debateId, debate.attempt, false) : [],
    };
  };
