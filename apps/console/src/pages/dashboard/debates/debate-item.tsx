import { Link } from 'wouter';
import { formatDateTime, humanize, percent } from '../../../components/format.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type { Schemas } from '../../../lib/api.ts';

/** One debate in a list: its question (the link), status, mode, when, and the verdict once there is one. */
export function DebateItem({ debate }: { debate: Schemas['Debate'] }) {
  return (
    <li className="debate-item">
      <Link href={`/debates/${debate.id}`} className="question">
        {debate.question}
      </Link>
      <div className="meta">
        <StatusBadge status={debate.status} />
        {debate.mode ? <span>{debate.mode}</span> : null}
        <span>
          Created <time dateTime={debate.createdAt}>{formatDateTime(debate.createdAt)}</time>
        </span>
      </div>
      {debate.status === 'completed' && debate.verdict ? (
        <p className="verdict-line">
          <strong>{humanize(debate.verdict.recommendation)}</strong>{' '}
          <span className="confidence">({percent(debate.verdict.confidence)} confident)</span>
          {debate.verdict.summary ? <> — {debate.verdict.summary}</> : null}
        </p>
      ) : null}
    </li>
  );
}
