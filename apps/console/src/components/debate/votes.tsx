import { useCallback, useState } from 'react';
import { data, messageOf, rest, type Schemas } from '../../lib/api.ts';
import { useLoad } from '../../lib/use-load.ts';

type Tally = Schemas['ClaimTally'];
export type ArgumentVotes = {
  tallyOf: (claimId: string) => Tally;
  /** Null where the reader may not vote (signed out, or a debate neither theirs nor public). */
  cast: ((claimId: string, vote: 'agree' | 'disagree' | 'neutral') => Promise<void>) | null;
  error: string | null;
};

const NO_VOTES: Tally = { agree: 0, disagree: 0, userVote: null };

/** A debate's agree/disagree tallies per claim, and the reader's own vote, kept current as they vote. */
export function useArgumentVotes(debateId: string | undefined, canVote: boolean): ArgumentVotes {
  const loaded = useLoad(
    (signal) =>
      debateId
        ? data(rest.GET('/api/debates/{debateId}/votes', { params: { path: { debateId } }, signal }))
        : Promise.resolve({ votes: {} as Record<string, Tally> }),
    [debateId],
  );
  const [mine, setMine] = useState<Record<string, Tally>>({});
  const [error, setError] = useState<string | null>(null);
  const tallyOf = useCallback(
    (claimId: string) => mine[claimId] ?? loaded.data?.votes[claimId] ?? NO_VOTES,
    [mine, loaded.data],
  );
  const cast = useCallback(
    async (claimId: string, vote: 'agree' | 'disagree' | 'neutral') => {
      if (!debateId) return;
      setError(null);
      try {
        const tally = await data(
          rest.POST('/api/debates/{debateId}/votes', {
            params: { path: { debateId } },
            body: { claimId, vote },
          }),
        );
        setMine((current) => ({ ...current, [claimId]: tally }));
      } catch (caught) {
        setError(messageOf(caught));
      }
    },
    [debateId],
  );
  return { tallyOf, cast: canVote ? cast : null, error };
}

/** Agree / disagree on one claim: pressed buttons show the reader's vote; pressing it again takes it back. */
export function VoteButtons({ claimId, votes }: { claimId: string; votes: ArgumentVotes }) {
  const tally = votes.tallyOf(claimId);
  const { cast } = votes;
  if (!cast) {
    return (
      <span className="muted votes">
        {tally.agree} agree · {tally.disagree} disagree
      </span>
    );
  }
  const toggle = (vote: 'agree' | 'disagree') =>
    void cast(claimId, tally.userVote === vote ? 'neutral' : vote);
  return (
    <span className="votes">
      <button
        type="button"
        className="vote secondary"
        aria-pressed={tally.userVote === 'agree'}
        onClick={() => toggle('agree')}
      >
        Agree ({tally.agree})
      </button>
      <button
        type="button"
        className="vote secondary"
        aria-pressed={tally.userVote === 'disagree'}
        onClick={() => toggle('disagree')}
      >
        Disagree ({tally.disagree})
      </button>
    </span>
  );
}
