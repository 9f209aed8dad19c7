import type { ClaimBox, LaidOutGraph } from './argument-graph-layout.ts';
import { ArrowDefs } from './arrow-defs.tsx';
import { LINE_HEIGHT } from './geometry.ts';
import { type HeatLevel, heatOf, type Tally } from './heat.ts';

/** What a claim says in words: who, what, its votes and their level (the colour's text equivalent). */
export function claimSummary(
  claim: ClaimBox | Omit<ClaimBox, 'box'>,
  tally: Tally | undefined,
  heat: HeatLevel,
) {
  const what = claim.targetAgent ? `rebuttal of ${claim.targetAgent}` : 'argument';
  const votes = `${tally?.agree ?? 0} agree, ${tally?.disagree ?? 0} disagree`;
  return `Round ${claim.round}, ${claim.agent}, ${what}: ${votes} (${heat.label})`;
}

/**
 * The claims as a graph: a column per round, each claim a link to its turn on the debate page, coloured by
 * its votes and saying them in text too; arrows run from a rebuttal to the claim it answers (solid), and
 * from a claim to one it builds on (dashed).
 */
export function ArgumentGraphSvg({
  debateId,
  graph,
  votes,
}: {
  debateId: string;
  graph: LaidOutGraph;
  votes: Record<string, Tally>;
}) {
  return (
    <svg
      className="diagram argument-graph"
      aria-label="Argument graph"
      viewBox={`0 0 ${Math.ceil(graph.width)} ${Math.ceil(graph.height)}`}
      width={Math.ceil(graph.width)}
      height={Math.ceil(graph.height)}
    >
      <title>Argument graph</title>
      <ArrowDefs />
      {graph.rounds.map(({ round, box }) => (
        <g key={round} className="graph-round">
          <rect className="round-box" x={box.x} y={box.y} width={box.width} height={box.height} rx={10} />
          <text className="round-label" x={box.x + 12} y={box.y + LINE_HEIGHT + 4}>
            Round {round}
          </text>
        </g>
      ))}
      {graph.edges.map((edge) => (
        <path
          key={edge.id}
          className={`graph-edge graph-edge-${edge.kind}`}
          data-kind={edge.kind}
          d={edge.d}
          markerStart="url(#diagram-arrow)"
        />
      ))}
      {graph.claims.map((claim) => (
        <ClaimNode key={claim.claimId} debateId={debateId} claim={claim} tally={votes[claim.claimId]} />
      ))}
    </svg>
  );
}

function ClaimNode({
  debateId,
  claim,
  tally,
}: {
  debateId: string;
  claim: ClaimBox;
  tally: Tally | undefined;
}) {
  const heat = heatOf(tally);
  const { x, y, width, height } = claim.box;
  const line = (i: number) => y + 10 + (i + 1) * LINE_HEIGHT - 3;
  return (
    <a
      href={`/debates/${debateId}#claim-${claim.claimId}`}
      className={`claim-node heat-${heat.id}`}
      aria-label={`${claimSummary(claim, tally, heat)}. Open the turn`}
      data-claim={claim.claimId}
    >
      <rect className="claim-box" x={x} y={y} width={width} height={height} rx={8} />
      <text className="claim-text claim-agent" x={x + 10} y={line(0)}>
        {claim.agent}
      </text>
      <text className="claim-text" x={x + 10} y={line(1)}>
        {claim.targetAgent ? `rebuts ${claim.targetAgent}` : 'argument'}
      </text>
      <text className="claim-text" x={x + 10} y={line(2)}>
        ▲{tally?.agree ?? 0} ▼{tally?.disagree ?? 0} · {heat.label}
      </text>
    </a>
  );
}
