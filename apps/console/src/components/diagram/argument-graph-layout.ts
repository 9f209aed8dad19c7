import { type ElkExtendedEdge, type ElkNode, layout } from './elk.ts';
import { type Box, boxOf, type EdgePath, edgePath, LINE_HEIGHT } from './geometry.ts';

/** One message of the debate that can be voted on: an argument, or a rebuttal of another agent. */
export type Claim = {
  claimId: string;
  agent: string;
  round: number;
  kind: 'argument' | 'rebuttal';
  targetAgent: string | null;
};

/** How a later claim relates to an earlier one: it answers it, or builds on it. */
export type EdgeKind = 'rebuts' | 'supports';
/** `from` rebuts or supports `to`: what the server's argument graph gives beyond the rebuttals' targets. */
export type ClaimLink = { from: string; to: string; kind: EdgeKind };

export type ClaimBox = Claim & { box: Box };
export type RebuttalEdge = EdgePath & { id: string; from: string; to: string; kind: EdgeKind };
export type LaidOutGraph = {
  width: number;
  height: number;
  rounds: { round: number; box: Box }[];
  claims: ClaimBox[];
  /** From a rebuttal (`from`) to the claim it answers, or from a claim to one it builds on (`to`). */
  edges: RebuttalEdge[];
};

export const CLAIM_WIDTH = 210;
export const CLAIM_HEIGHT = 3 * LINE_HEIGHT + 20;
const ROUND_HEADER = LINE_HEIGHT + 20;

/** The claims of the previous round that a rebuttal answers: those of the agent it names. */
export function rebuttalEdges(claims: Claim[]): { from: string; to: string }[] {
  const byAgentRound = new Map(claims.map((c) => [`${c.round}:${c.agent}`, c]));
  return claims.flatMap((claim) => {
    if (claim.kind !== 'rebuttal' || !claim.targetAgent) return [];
    const target = byAgentRound.get(`${claim.round - 1}:${claim.targetAgent}`);
    return target ? [{ from: claim.claimId, to: target.claimId }] : [];
  });
}

const roundId = (round: number) => `round:${round}`;

/**
 * Every link to draw: each rebuttal's, then the cited ones (`cited`, from the server's graph), each pair and
 * kind once and only between the claims shown (a live debate's graph may name a claim not yet here).
 */
export function linksOf(claims: Claim[], cited: ClaimLink[]): ClaimLink[] {
  const shown = new Set(claims.map((c) => c.claimId));
  const links = [...rebuttalEdges(claims).map((e) => ({ ...e, kind: 'rebuts' as const })), ...cited];
  const seen = new Set<string>();
  return links.filter((link) => {
    const key = `${link.from} ${link.to} ${link.kind}`;
    if (seen.has(key) || !shown.has(link.from) || !shown.has(link.to) || link.from === link.to) return false;
    seen.add(key);
    return true;
  });
}

const edgeId = (link: ClaimLink) => `${link.kind}:${link.from}->${link.to}`;

function elkGraph(claims: Claim[], cited: ClaimLink[]): ElkNode {
  const rounds = [...new Set(claims.map((c) => c.round))].sort((a, b) => a - b);
  // Laid out from the earlier claim to the later one, so the rounds read left to right; drawn pointing back.
  const edges: ElkExtendedEdge[] = linksOf(claims, cited).map((link) => ({
    id: edgeId(link),
    sources: [link.to],
    targets: [link.from],
  }));
  return {
    id: 'root',
    layoutOptions: { 'elk.direction': 'RIGHT', 'elk.partitioning.activate': 'true' },
    children: rounds.map((round) => ({
      id: roundId(round),
      layoutOptions: {
        'elk.partitioning.partition': String(round),
        'elk.padding': `[top=${ROUND_HEADER},left=12,bottom=12,right=12]`,
        'elk.direction': 'DOWN',
      },
      children: claims
        .filter((c) => c.round === round)
        .map((c) => ({ id: c.claimId, width: CLAIM_WIDTH, height: CLAIM_HEIGHT })),
    })),
    edges,
  };
}

function readLayout(claims: Claim[], laid: ElkNode): LaidOutGraph {
  const byId = new Map(claims.map((c) => [c.claimId, c]));
  const rounds: LaidOutGraph['rounds'] = [];
  const boxes: ClaimBox[] = [];
  for (const group of laid.children ?? []) {
    rounds.push({ round: Number(group.id.slice('round:'.length)), box: boxOf(group) });
    for (const node of group.children ?? []) {
      const claim = byId.get(node.id);
      if (claim) boxes.push({ ...claim, box: boxOf(node) });
    }
  }
  const edges = (laid.edges ?? []).map((edge) => ({
    id: edge.id,
    from: edge.targets[0] ?? '',
    to: edge.sources[0] ?? '',
    kind: (edge.id.startsWith('supports:') ? 'supports' : 'rebuts') as EdgeKind,
    ...edgePath(edge),
  }));
  return { width: laid.width ?? 0, height: laid.height ?? 0, rounds, claims: boxes, edges };
}

/**
 * Layouts by what decides them (the claims, not their votes): a live debate is laid out again only as it
 * grows. A few are kept, enough for the pages open in one session.
 */
const layouts = new Map<string, Promise<LaidOutGraph>>();
const KEPT_LAYOUTS = 8;

export function layoutArgumentGraph(claims: Claim[], cited: ClaimLink[] = []): Promise<LaidOutGraph> {
  const key = JSON.stringify([
    claims.map((c) => [c.claimId, c.agent, c.round, c.kind, c.targetAgent]),
    cited.map(edgeId),
  ]);
  let laid = layouts.get(key);
  if (!laid) {
    laid = layout(elkGraph(claims, cited)).then((result) => readLayout(claims, result));
    laid.catch(() => layouts.delete(key));
    layouts.set(key, laid);
    const oldest = layouts.keys().next().value;
    if (layouts.size > KEPT_LAYOUTS && oldest !== undefined) layouts.delete(oldest);
  }
  return laid;
}
