import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '../../../lib/api.ts';

/** The headline figures; a change between reads (a newly scored outcome) is announced. */
export function ScoreFigures({ score, readAt }: { score: Schemas['DecisionScore']; readAt: Date }) {
  const previous = useRef<Schemas['DecisionScore'] | null>(null);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    const before = previous.current;
    if (before && (before.totalResolved !== score.totalResolved || before.brierScore !== score.brierScore))
      setAnnouncement(
        `Score updated: accuracy ${score.accuracyPercentage}%, Brier score ${score.brierScore}.`,
      );
    previous.current = score;
  }, [score]);

  return (
    <>
      <dl className="figures" aria-label="Your decision score">
        <div>
          <dt>Accuracy</dt>
          <dd>{score.totalResolved === 0 ? '—' : `${score.accuracyPercentage.toFixed(1)}%`}</dd>
        </div>
        <div>
          <dt>Brier score</dt>
          <dd>
            {score.totalResolved === 0 ? '—' : score.brierScore.toFixed(3)}
            <span className="figure-note">lower is better; 0 is perfect</span>
          </dd>
        </div>
        <div>
          <dt>Resolved</dt>
          <dd>
            {score.totalResolved}
            <span className="figure-note">of {score.totalTracked} tracked</span>
          </dd>
        </div>
        <div>
          <dt>Correct streak</dt>
          <dd>{score.streak}</dd>
        </div>
      </dl>
      <p className="muted small">
        Read at <time dateTime={readAt.toISOString()}>{readAt.toLocaleTimeString()}</time>
      </p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}
