import { z } from 'zod';
import { DebateStatus } from './debates.ts';

/** How one claim relates to an earlier one: it answers it, or it builds on it. */
export const ClaimEdgeKind = z.enum(['rebuts', 'supports']);
export type ClaimEdgeKind = z.infer<typeof ClaimEdgeKind>;

export { CITATION_PATTERN, citationTag } from './tags.ts';

/** A claim's votes as a heatmap colours it: agree and disagree counts, and agree minus disagree. */
export const ClaimWeight = z
  .object({
    agree: z.number().int().min(0).meta({ description: 'Readers who agree (up-votes)' }),
    disagree: z.number().int().min(0).meta({ description: 'Readers who disagree (down-votes)' }),
    net: z.number().int().meta({ description: 'agree − disagree' }),
  })
  .meta({ id: 'ClaimWeight' });
export type ClaimWeight = z.infer<typeof ClaimWeight>;

/** One argument or rebuttal of the debate's current attempt. */
export const GraphClaim = z
  .object({
    claimId: z.string().meta({ description: 'What votes name the claim by (a1-r2-risk-analyst)' }),
    agent: z.string(),
    round: z.number().int().min(1),
    kind: z.enum(['argument', 'rebuttal']),
    targetAgent: z
      .string()
      .nullable()
      .meta({ description: 'The agent a rebuttal answers; null for arguments' }),
    content: z.string(),
    weight: ClaimWeight,
  })
  .meta({ id: 'GraphClaim' });
export type GraphClaim = z.infer<typeof GraphClaim>;

/** `from` rebuts or supports `to`, a claim of an earlier round. */
export const ClaimEdge = z
  .object({
    from: z.string().meta({ description: 'claimId of the later claim' }),
    to: z.string().meta({ description: 'claimId of the earlier claim it rebuts or supports' }),
    kind: ClaimEdgeKind,
  })
  .meta({ id: 'ClaimEdge' });
export type ClaimEdge = z.infer<typeof ClaimEdge>;

/** GET /api/debates/:id/argument-graph. */
export const ArgumentGraph = z
  .object({
    debateId: z.uuid(),
    status: DebateStatus,
    attempt: z.number().int().min(1).meta({ description: 'The attempt whose claims these are' }),
    claims: z.array(GraphClaim).meta({ description: 'In the order spoken (round by round)' }),
    edges: z.array(ClaimEdge).meta({
      description:
        'Each pair and kind once, never a claim to itself, only between claims listed here. A rebuttal ' +
        "rebuts its target agent's claim of the round before; cited claims ([supports <claimId>], " +
        '[rebuts <claimId>] in a turn) add edges to the claims of earlier rounds they name.',
    }),
  })
  .meta({ id: 'ArgumentGraph' });
export type ArgumentGraph = z.infer<typeof ArgumentGraph>;
