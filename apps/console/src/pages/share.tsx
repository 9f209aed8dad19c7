import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { PanelList } from '../components/debate/panel-list.tsx';
import { Transcript } from '../components/debate/transcript.tsx';
import { VerdictView } from '../components/debate/verdict-view.tsx';
import { useArgumentVotes } from '../components/debate/votes.tsx';
import { EvidenceView } from '../components/evidence/evidence-view.tsx';
import { FormError } from '../components/form-error.tsx';
import { Comments } from '../components/share/comments.tsx';
import { data, isNotFound, isUnauthorized, rest, type Schemas } from '../lib/api.ts';
import type { SpokenTurn } from '../lib/debate-log.ts';
import { passagesById } from '../lib/passages.ts';
import { useSession } from '../lib/session.tsx';
import { useClaimInHash } from '../lib/use-claim-in-hash.ts';
import { useLoad } from '../lib/use-load.ts';

type PublicDebate = Schemas['PublicDebate'];

/** How often a page open on a debate still running reads it again (the public read allows 30 a minute). */
const REFRESH_MS = 5_000;

/**
 * A shared debate, as its link allows: question, panel, transcript and verdict for anyone holding the link
 * (or only a signed-in reader, with requireSignIn); its cost only with showCost; comments and a fork button
 * where the owner allowed them. Works signed out and on a phone. Citations open the passages they cite (the
 * link shares those), and claim tags lead to the turns they answer.
 */
export default function Share({ token }: { token: string }) {
  const { user } = useSession();
  const [tick, setTick] = useState(0);
  const shared = useLoad(
    (signal) => data(rest.GET('/api/public/debates/{token}', { params: { path: { token } }, signal })),
    [token, tick, user?.id],
  );
  const running = shared.data && shared.data.status !== 'completed' && shared.data.status !== 'failed';
  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(() => setTick((t) => t + 1), REFRESH_MS);
    return () => window.clearTimeout(timer);
  }, [running]);

  return (
    <main id="main" className="share-page">
      <p className="brand-line">
        <a href="/">Verdict</a> · shared debate
      </p>
      {shared.data ? (
        <SharedDebate debate={shared.data} signedIn={Boolean(user)} />
      ) : shared.error ? (
        <Unavailable error={shared.error} token={token} />
      ) : (
        <p className="loading">Loading…</p>
      )}
    </main>
  );
}

function SharedDebate({ debate, signedIn }: { debate: PublicDebate; signedIn: boolean }) {
  const turns: SpokenTurn[] = debate.transcript.map((entry) => ({
    claimId: entry.claimId,
    kind: entry.type,
    agent: entry.agent,
    round: entry.round,
    content: entry.content,
    model: debate.panel.find((seat) => seat.name === entry.agent)?.model ?? '',
    targetAgent: entry.targetAgent,
    citations: entry.citations,
  }));
  // The link shares only the passages its transcript cites, with the debate: nothing more to read.
  const passages = useMemo(() => passagesById(debate.citedPassages), [debate.citedPassages]);
  const highlight = useClaimInHash();
  // Votes are open on public debates only (a link to a private one lets its holder read, not vote).
  const votes = useArgumentVotes(debate.isPublic ? debate.id : undefined, signedIn && debate.isPublic);
  const verdict = debate.verdict
    ? { ...debate.verdict, confidence: Math.round(debate.verdict.confidence * 100) }
    : null;
  return (
    <EvidenceView passages={passages} claims={turns}>
      <article aria-labelledby="question">
        <h1 id="question">{debate.question}</h1>
        <p>
          <span className={`badge ${debate.status}`}>{debate.status}</span>
          <span className="muted">
            {' '}
            · {debate.viewCount} view{debate.viewCount === 1 ? '' : 's'}
          </span>
        </p>
        {debate.context ? <p className="muted">{debate.context}</p> : null}
        <PanelList panel={debate.panel} />
        {verdict ? <VerdictView verdict={verdict} cost={debate.cost} /> : null}
        <section aria-labelledby="transcript-heading">
          <h2 id="transcript-heading">Transcript</h2>
          <Transcript
            turns={turns}
            panel={debate.panel}
            highlight={highlight}
            votes={debate.isPublic ? votes : undefined}
          />
        </section>
        {debate.settings.allowFork && signedIn ? <ForkButton id={debate.id} /> : null}
        {debate.settings.allowComments ? (
          // A private debate's comments are for signed-in holders of its link; a public one's for anyone.
          signedIn || debate.isPublic ? (
            <Comments debateId={debate.id} signedIn={signedIn} />
          ) : (
            <p>
              <a href={`/sign-in?next=${encodeURIComponent(window.location.pathname)}`}>Sign in</a> to read
              and write comments.
            </p>
          )
        ) : null}
      </article>
    </EvidenceView>
  );
}

function ForkButton({ id }: { id: string }) {
  const [error, setError] = useState<unknown>(null);
  const [, navigate] = useLocation();
  const fork = async () => {
    setError(null);
    try {
      const created = await data(rest.POST('/api/debates/{id}/fork', { params: { path: { id } }, body: {} }));
      navigate(`/debates/${created.debateId}`);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section className="panel">
      <button type="button" onClick={() => void fork()}>
        Fork this debate
      </button>
      <FormError error={error} />
    </section>
  );
}

function Unavailable({ error, token }: { error: unknown; token: string }) {
  if (isUnauthorized(error)) {
    return (
      <section>
        <h1>Sign in to read this debate</h1>
        <p>
          Its owner shares it with signed-in readers only.{' '}
          <a href={`/sign-in?next=${encodeURIComponent(`/share/${token}`)}`}>Sign in</a>
        </p>
      </section>
    );
  }
  if (isNotFound(error)) {
    return (
      <section>
        <h1>This link no longer works</h1>
        <p>The debate was unshared or deleted, or the link was replaced by a newer one.</p>
      </section>
    );
  }
  return <FormError error={error} />;
}
