import { VerdictError } from '@verdict/sdk';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import {
  type Claim,
  type ClaimLink,
  type LaidOutGraph,
  layoutArgumentGraph,
} from '../../components/diagram/argument-graph-layout.ts';
import { ArgumentGraphSvg, claimSummary } from '../../components/diagram/argument-graph-svg.tsx';
import { heatOf, type Tally } from '../../components/diagram/heat.ts';
import { HeatLegend } from '../../components/diagram/heat-legend.tsx';
import { data, messageOf, rest } from '../../lib/api.ts';
import { useDebateEvents } from '../../lib/debate-events.ts';
import { useLoad } from '../../lib/use-load.ts';

/**
 * The argument graph: every claim of the debate by round, each rebuttal linked to the claim it answers,
 * coloured by the audience's votes. Each claim opens its turn on the debate page; a table says the same.
 */
export default function ArgumentGraphPage({ id }: { id: string }) {
  const { log, connection, error } = useDebateEvents(id);
  const claims = useMemo(
    () =>
      log.turns.map(({ claimId, agent, round, kind, targetAgent }) => ({
        claimId,
        agent,
        round,
        kind,
        targetAgent,
      })),
    [log.turns],
  );
  const ended = connection === 'ended' || connection === 'failed';
  const votes = useLoad(
    (signal) =>
      data(rest.GET('/api/debates/{debateId}/votes', { params: { path: { debateId: id } }, signal })),
    [id, ended],
  );
  const tallies: Record<string, Tally> = votes.data?.votes ?? {};
  // The server's graph adds the links the turns cite (supports, and rebuts beyond each rebuttal's target);
  // it is a plan's feature, so without it the page still draws the rebuttals it knows from the stream.
  const server = useLoad(
    (signal) => data(rest.GET('/api/debates/{id}/argument-graph', { params: { path: { id } }, signal })),
    [id, ended],
  );
  const shown = useMemo(
    () => ({ claims, cited: (server.data?.edges ?? []) as ClaimLink[] }),
    [claims, server.data],
  );
  const graph = useGraphLayout(shown);

  return (
    <section className="graph-page">
      <h1>Argument graph</h1>
      <nav className="controls" aria-label="Debate views">
        <Link href={`/debates/${id}`}>Debate</Link>
        <Link href={`/debates/${id}/chart`}>State chart</Link>
      </nav>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p aria-live="polite">
        {claims.length} claim{claims.length === 1 ? '' : 's'}
        {ended ? '' : ' so far; the debate is still going'}.{' '}
        {votes.error !== undefined && (
          <span className="error">Votes unavailable: {messageOf(votes.error)}</span>
        )}
      </p>
      <div className="controls">
        <button type="button" className="secondary" onClick={votes.reload} disabled={votes.loading}>
          Refresh votes
        </button>
      </div>
      <HeatLegend />
      <CitedLinksNote error={server.error} />
      <div className="diagram-scroll">
        {graph.laid ? (
          <ArgumentGraphSvg debateId={id} graph={graph.laid} votes={tallies} />
        ) : graph.error !== undefined ? (
          <p className="error">Could not lay the graph out: {messageOf(graph.error)}</p>
        ) : claims.length > 0 ? (
          <p className="loading">Laying the graph out…</p>
        ) : (
          <p className="muted">{ended ? 'This debate has no claims.' : 'Waiting for the first claim…'}</p>
        )}
      </div>
      <ClaimsTable id={id} claims={claims} links={graph.laid?.edges ?? []} tallies={tallies} />
    </section>
  );
}

/**
 * The newest layout of the claims; the previous one stays on screen while the next is made. One layout
 * runs at a time and the latest claims win, so a replay arriving event by event is laid out a few times,
 * not once per claim.
 */
function useGraphLayout(shown: { claims: Claim[]; cited: ClaimLink[] }) {
  const [state, setState] = useState<{ laid: LaidOutGraph | null; error: unknown }>({
    laid: null,
    error: undefined,
  });
  const running = useRef(false);
  const wanted = useRef<typeof shown | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    wanted.current = shown;
    if (shown.claims.length === 0 || running.current) return;
    const next = async () => {
      running.current = true;
      let done: typeof shown | null = null;
      while (mounted.current && wanted.current !== null && wanted.current !== done) {
        done = wanted.current;
        try {
          const laid = await layoutArgumentGraph(done.claims, done.cited);
          if (mounted.current) setState({ laid, error: undefined });
        } catch (error) {
          if (mounted.current) setState((s) => ({ laid: s.laid, error }));
        }
      }
      running.current = false;
    };
    void next();
  }, [shown]);
  return state;
}

/**
 * What the arrows mean, and why cited links may be missing: the plan has no argument graph heatmap (402,
 * with where to upgrade), or the read failed.
 */
function CitedLinksNote({ error }: { error: unknown }) {
  const upgradeUrl =
    error instanceof VerdictError && error.status === 402 ? String(error.extra.upgradeUrl ?? '') : null;
  return (
    <p className="muted">
      Solid arrows: a rebuttal answers a claim. Dashed: a claim builds on one it cites.{' '}
      {upgradeUrl !== null ? (
        <>
          Cited links are part of the argument graph heatmap, which your plan does not include (
          {upgradeUrl ? <a href={upgradeUrl}>see the plans</a> : 'see the plans'}); rebuttals are shown.
        </>
      ) : error !== undefined ? (
        <span className="error">Cited links unavailable: {messageOf(error)}</span>
      ) : null}
    </p>
  );
}

/** The graph as a table: what a screen reader or a keyboard user reads instead of the drawing. */
function ClaimsTable({
  id,
  claims,
  links,
  tallies,
}: {
  id: string;
  claims: Claim[];
  links: ClaimLink[];
  tallies: Record<string, Tally>;
}) {
  if (claims.length === 0) return null;
  const byId = new Map(claims.map((c) => [c.claimId, c]));
  const buildsOn = (claimId: string) =>
    links
      .filter((link) => link.kind === 'supports' && link.from === claimId)
      .flatMap((link) => {
        const to = byId.get(link.to);
        return to ? [`${to.agent} (round ${to.round})`] : [];
      })
      .join(', ') || '—';
  const ordered = [...claims].sort((a, b) => a.round - b.round || a.agent.localeCompare(b.agent));
  return (
    <div className="table-scroll">
      <table>
        <caption>Claims and their votes</caption>
        <thead>
          <tr>
            <th scope="col">Round</th>
            <th scope="col">Agent</th>
            <th scope="col">Answers</th>
            <th scope="col">Builds on</th>
            <th scope="col">Agree</th>
            <th scope="col">Disagree</th>
            <th scope="col">Votes</th>
            <th scope="col">Turn</th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((claim) => {
            const tally = tallies[claim.claimId];
            const heat = heatOf(tally);
            return (
              <tr key={claim.claimId}>
                <td>{claim.round}</td>
                <td>{claim.agent}</td>
                <td>{claim.targetAgent ?? '—'}</td>
                <td>{buildsOn(claim.claimId)}</td>
                <td>{tally?.agree ?? 0}</td>
                <td>{tally?.disagree ?? 0}</td>
                <td>
                  <span className={`heat-swatch heat-${heat.id}`} aria-hidden="true" /> {heat.label}
                </td>
                <td>
                  <a
                    href={`/debates/${id}#claim-${claim.claimId}`}
                    aria-label={`Open the turn: ${claimSummary(claim, tally, heat)}`}
                  >
                    Open
                  </a>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
