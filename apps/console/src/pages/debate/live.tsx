import { useMemo } from 'react';
import { DebateControls } from '../../components/debate/controls.tsx';
import { DebateTabs } from '../../components/debate/debate-tabs.tsx';
import { PanelList } from '../../components/debate/panel-list.tsx';
import { ShareButton } from '../../components/debate/share-button.tsx';
import { Transcript } from '../../components/debate/transcript.tsx';
import { VerdictView } from '../../components/debate/verdict-view.tsx';
import { useArgumentVotes } from '../../components/debate/votes.tsx';
import { EvidenceView } from '../../components/evidence/evidence-view.tsx';
import { PassagesNote } from '../../components/evidence/passages-note.tsx';
import { FormError } from '../../components/form-error.tsx';
import { data, isNotFound, rest } from '../../lib/api.ts';
import { useDebateEvents } from '../../lib/debate-events.ts';
import type { DebateLog } from '../../lib/debate-log.ts';
import { useSession } from '../../lib/session.tsx';
import { hasEvidenceTag } from '../../lib/turn-text.ts';
import { useClaimInHash } from '../../lib/use-claim-in-hash.ts';
import { useLoad } from '../../lib/use-load.ts';
import { useDebateEvidence } from './use-debate-evidence.ts';

/**
 * One debate as it happens: the question and panel, each turn as the stream delivers it, progress over the
 * rounds, the owner's controls, then the verdict. A finished debate replays the same way, at once. Tags in
 * the turns are links: to the passages they cite (the debate's evidence read) and to the turns they answer.
 */
export default function LiveDebate({ id }: { id: string }) {
  const { log, connection, error: streamError } = useDebateEvents(id);
  const { user } = useSession();
  // The stored debate, and its whole verdict once the stream says it ended (every read shows it by then).
  const detail = useLoad(
    (signal) => data(rest.GET('/api/debates/{id}/verdict', { params: { path: { id } }, signal })),
    [id, log.ended?.status],
  );
  const highlight = useClaimInHash();
  const cites = useMemo(() => log.turns.some((turn) => hasEvidenceTag(turn.content)), [log.turns]);
  const passages = useDebateEvidence(id, cites);
  const owned = detail.data !== undefined && user?.id === detail.data.debate.ownerId;
  const votes = useArgumentVotes(
    detail.data?.debate.id,
    Boolean(user) && (owned || detail.data?.debate.isPublic === true),
  );

  if (detail.error && isNotFound(detail.error)) {
    return (
      <section>
        <h1>Debate not found</h1>
        <p>It does not exist, was deleted, or is not yours to see.</p>
      </section>
    );
  }
  const debate = detail.data?.debate;
  const rounds = log.rounds ?? debate?.roundCount ?? null;
  const roundsDone = log.ended ? (rounds ?? 0) : Math.max(0, log.round - (log.paused ? 0 : 1));
  const isOwner = owned;
  const running =
    !log.ended && debate !== undefined && debate.status !== 'completed' && debate.status !== 'failed';
  const status = log.ended?.status ?? (log.paused ? 'paused' : (debate?.status ?? 'pending'));

  return (
    <EvidenceView passages={passages} claims={log.turns}>
      <article aria-labelledby="question">
        <DebateTabs id={id} />
        <h1 id="question">{debate?.question ?? 'Loading debate…'}</h1>
        <p>
          <span className={`badge ${status}`}>{status}</span>
          {debate?.mode ? <span className="muted"> · {debate.mode} mode</span> : null}
          {connection === 'live' && !log.ended ? <span className="muted"> · live</span> : null}
        </p>
        {rounds ? (
          <p>
            <label className="inline round-progress">
              <span>
                Round {Math.min(Math.max(log.round, 1), rounds)} of {rounds}
              </span>
              <progress aria-label="Rounds" max={rounds} value={roundsDone} />
            </label>
          </p>
        ) : null}
        <PanelList panel={log.panel} />
        {isOwner ? <DebateControls id={id} paused={log.paused} running={running} /> : null}
        <section aria-labelledby="transcript-heading">
          <h2 id="transcript-heading">Transcript</h2>
          <PassagesNote passages={passages} />
          {log.turns.length === 0 && !log.ended ? <p className="muted">Waiting for the first turn…</p> : null}
          <Transcript
            turns={log.turns}
            panel={log.panel}
            thinking={log.thinking}
            highlight={highlight}
            votes={votes}
          />
          {log.injected.map((item) => (
            <p key={`${item.forRound}:${item.content}`} className="muted">
              Injected for round {item.forRound}: {item.content}
            </p>
          ))}
          <ConvergenceLine convergence={log.convergence} />
          {log.judging ? <p className="muted">The judge is weighing the arguments…</p> : null}
        </section>
        {log.ended?.status === 'failed' ? (
          <p className="error" role="alert">
            The debate failed ({log.ended.code}): {log.ended.error}
          </p>
        ) : null}
        {detail.data?.verdict ? (
          <VerdictView verdict={detail.data.verdict} cost={debate?.cost ?? null} />
        ) : null}
        {isOwner && debate?.status === 'completed' ? <ShareButton id={id} /> : null}
        <FormError error={streamError ? new Error(`Stream: ${streamError}`) : null} />
        <FormError error={detail.error} />
      </article>
    </EvidenceView>
  );
}

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** How far the panel agreed after each round, and whether that stopped the debate early. */
function ConvergenceLine({ convergence }: { convergence: DebateLog['convergence'] }) {
  if (convergence.length === 0) return null;
  const stop = convergence.find((point) => point.stopping);
  return (
    <p className="muted">
      Convergence: {convergence.map((point) => `round ${point.round} ${percent(point.score)}`).join(' · ')}
      {stop
        ? ` — the positions converged (threshold ${percent(stop.threshold ?? 1)}), so the remaining rounds were skipped and their credits refunded.`
        : ''}
    </p>
  );
}
