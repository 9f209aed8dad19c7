import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '../../../lib/api.ts';
import { headlineFigures, scoreAnnouncement } from './figures.ts';

/** The headline figures, named for what they are; a change between reads (a new outcome) is announced. */
export function ScoreFigures({ score, readAt }: { score: Schemas['DecisionScore']; readAt: Date }) {
  const previous = useRef<Schemas['DecisionScore'] | null>(null);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    const before = previous.current;
    if (before && (before.totalResolved !== score.totalResolved || before.brierScore !== score.brierScore))
      setAnnouncement(scoreAnnouncement(score));
    previous.current = score;
  }, [score]);

  return (
    <>
      <dl className="figures" aria-label="Your decision score">
        {headlineFigures(score).map((figure) => (
          <div key={figure.label}>
            <dt>{figure.label}</dt>
            <dd>
              {figure.value}
              {figure.note ? <span className="figure-note">{figure.note}</span> : null}
            </dd>
          </div>
        ))}
      </dl>
      {score.totalResolved > 0 ? (
        <p className="muted small">
          The Brier score is the mean of (confidence − outcome)² over your resolved outcomes, the outcome 1
          when correct, 0.5 when partially correct and 0 when wrong: 0 is best, 1 worst. 1 − Brier is that as
          a percentage, not the share of verdicts that came true: one wrong verdict given at 50% confidence
          makes it 75%.
        </p>
      ) : null}
      <p className="muted small">
        Read at <time dateTime={readAt.toISOString()}>{readAt.toLocaleTimeString()}</time>
      </p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}
