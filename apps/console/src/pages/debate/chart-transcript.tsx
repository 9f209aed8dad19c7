import { EvidenceView } from '../../components/evidence/evidence-view.tsx';
import { TurnText } from '../../components/evidence/turn-text.tsx';
import type { SpokenTurn } from './chart-moments.ts';

/**
 * The turns spoken up to the chosen moment, newest last, each linked to its place on the live page, as are
 * the claims they cite; their citations of passages are marked (the live page opens the passages).
 */
export function TranscriptSoFar({ debateId, turns }: { debateId: string; turns: SpokenTurn[] }) {
  return (
    <EvidenceView
      passages={NO_PASSAGES}
      claims={turns}
      claimHref={(claimId) => `/debates/${debateId}#claim-${claimId}`}
    >
      <section className="chart-transcript" aria-labelledby="chart-transcript-heading">
        <h2 id="chart-transcript-heading">Transcript at this moment</h2>
        {turns.length === 0 ? (
          <p className="muted">No turn spoken yet.</p>
        ) : (
          <ol className="turns">
            {turns.map((turn) => (
              <li key={turn.claimId || `${turn.round}:${turn.agent}`} className="turn">
                <header>
                  <strong>{turn.agent}</strong>
                  <span className="muted">
                    round {turn.round}
                    {turn.targetAgent ? `, rebutting ${turn.targetAgent}` : ''}
                  </span>
                  {turn.claimId && (
                    <a
                      href={`/debates/${debateId}#claim-${turn.claimId}`}
                      aria-label={`Open the turn of ${turn.agent}, round ${turn.round}, on the debate page`}
                    >
                      open turn
                    </a>
                  )}
                </header>
                <p>
                  <TurnText text={turn.content} citations={turn.citations} />
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
    </EvidenceView>
  );
}

const NO_PASSAGES = { state: 'none' } as const;
