import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import {
  type Claim,
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
  const graph = useGraphLayout(claims);

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
      <ClaimsTable id={id} claims={claims} tallies={tallies} />
    </section>
  );
}

/**
 * The newest layout of the claims; the previous one stays on screen while the next is made. One layout
 * runs at a time and the latest claims win, so a replay arriving event by event is laid out a few times,
 * not once per claim.
 */
function useGraphLayout(claims: Claim[]) {
  const [state, setState] = useState<{ laid: LaidOutGraph | null; error: unknown }>({
    laid: null,
    error: undefined,
  });
  const running = useRef(false);
  const wanted = useRef<Claim[]>([]);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    wanted.current = claims;
    if (claims.length === 0 || running.current) return;
    const next = async () => {
      running.current = true;
      let done: Claim[] | null = null;
      while (mounted.current && wanted.current !== done) {
        done = wanted.current;
        try {
          const laid = await layoutArgumentGraph(done);
          if (mounted.current) setState({ laid, error: undefined });
        } catch (error) {
          if (mounted.current) setState((s) => ({ laid: s.laid, error }));
        }
      }
      running.current = false;
    };
    void next();
  }, [claims]);
  return state;
}

/** The graph as a table: what a screen reader or a keyboard user reads instead of the drawing. */
function ClaimsTable({
  id,
  claims,
  tallies,
}: {
  id: string;
  claims: Claim[];
  tallies: Record<string, Tally>;
}) {
  if (claims.length === 0) return null;
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
