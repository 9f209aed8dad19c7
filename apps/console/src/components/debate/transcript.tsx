import type { PanelSeat, SpokenTurn } from '../../lib/debate-log.ts';
import { TurnText } from '../evidence/turn-text.tsx';
import { ModelName } from './model-name.tsx';
import { type ArgumentVotes, VoteButtons } from './votes.tsx';

type Props = {
  turns: SpokenTurn[];
  panel: PanelSeat[];
  /** Agents working on their turn now. */
  thinking?: string[];
  /** The turn to mark (a link to `#claim-…`, the argument graph's click). */
  highlight?: string | null;
  /** Tallies (and, where the reader may, buttons) under each turn. */
  votes?: ArgumentVotes;
};

/**
 * Every turn in the order spoken, each addressable as `#claim-<claimId>`, its tags shown as links (TurnText). New turns are announced politely
 * to screen readers (the list is a live region), without re-reading the whole transcript.
 */
export function Transcript({ turns, panel, thinking = [], highlight = null, votes }: Props) {
  const roleOf = new Map(panel.map((seat) => [seat.name, seat.role]));
  return (
    <>
      <ol className="turns" aria-label="Transcript" aria-live="polite" aria-relevant="additions">
        {turns.map((turn) => (
          <li
            key={turn.claimId}
            id={`claim-${turn.claimId}`}
            className={`turn${highlight === turn.claimId ? ' highlight' : ''}`}
          >
            <header>
              <strong>{turn.agent}</strong>
              {roleOf.get(turn.agent) ? <span className="muted">{roleOf.get(turn.agent)}</span> : null}
              <span className="muted">
                Round {turn.round}
                {turn.kind === 'rebuttal' && turn.targetAgent ? ` · rebuts ${turn.targetAgent}` : ''}
              </span>
              <ModelName model={turn.model} />
            </header>
            <p>
              <TurnText text={turn.content} citations={turn.citations} />
            </p>
            {turn.position ? <p className="muted">Position: {positionText(turn.position)}</p> : null}
            {votes ? <VoteButtons claimId={turn.claimId} votes={votes} /> : null}
          </li>
        ))}
      </ol>
      {votes?.error ? (
        <p className="error" role="alert">
          {votes.error}
        </p>
      ) : null}
      {thinking.length > 0 ? (
        <p className="muted" aria-live="polite">
          {thinking.join(', ')} {thinking.length === 1 ? 'is' : 'are'} thinking…
        </p>
      ) : null}
    </>
  );
}

/** "PROCEED · for · 70%", or a comparison's "B > A > C". */
function positionText(position: NonNullable<SpokenTurn['position']>): string {
  const parts = [
    position.ranking?.join(' > '),
    position.recommendation,
    position.stance,
    position.confidence !== undefined ? `${Math.round(position.confidence * 100)}%` : undefined,
  ];
  return parts.filter(Boolean).join(' · ');
}
