import { Link } from 'wouter';
import { FormError } from '../../components/form-error.tsx';
import { CalibrationChart } from './scores/calibration-chart.tsx';
import { DomainsTable } from './scores/domains-table.tsx';
import { ScoreFigures } from './scores/score-figures.tsx';
import { TrendChart } from './scores/trend-chart.tsx';
import { useScores } from './scores/use-scores.ts';

/** How good the verdicts have been: Brier score (and 1 − Brier), calibration, trend and domains. */
export default function ScoresPage() {
  const scores = useScores();
  const loaded = scores.data;
  return (
    <section className="dashboard">
      <div className="page-heading">
        <h1>Decision score</h1>
        <button
          type="button"
          className="secondary"
          onClick={() => void scores.reload()}
          disabled={scores.loading}
        >
          Refresh
        </button>
      </div>
      <p className="muted small" aria-live="polite">
        {scores.catchingUp ? 'Scoring your latest outcome…' : ''}
      </p>
      <FormError error={scores.error} />
      {loaded === undefined ? (
        scores.error ? null : (
          <p className="loading">Loading…</p>
        )
      ) : (
        <>
          <ScoreFigures score={loaded.score} readAt={loaded.readAt} />
          {loaded.score.totalResolved === 0 ? (
            <p className="empty">
              No resolved outcomes yet. Record what became of a decision on the{' '}
              <Link href="/outcomes">Outcomes</Link> page and your score appears here within seconds.
            </p>
          ) : (
            <>
              <CalibrationChart buckets={loaded.calibration} />
              <TrendChart points={loaded.trend} />
              <DomainsTable domains={loaded.domains} />
            </>
          )}
        </>
      )}
    </section>
  );
}
