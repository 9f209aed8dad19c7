import { z } from 'zod';
import { DebateSummary, Recommendation } from './debates.ts';
import { UuidInput } from './ids.ts';
import { visibleText } from './text.ts';

export const CHAIN_NAME_MAX = 200;
/** Chains one user owns at most: bounds GET /api/chains, which is not paginated. */
export const CHAINS_PER_USER_MAX = 1000;
/** Debates one chain holds at most, its root included: bounds the single read and the context. */
export const CHAIN_DEBATES_MAX = 200;
/** The longest context a chain gives: the `context` limit of a new debate. */
export const CHAIN_CONTEXT_MAX = 5000;

/** How a debate follows the one it hangs from. */
export const ChainRelationship = z.enum(['follow_up', 'reversal', 'refinement']);
export type ChainRelationship = z.infer<typeof ChainRelationship>;

/** POST /api/chains. */
export const CreateChainInput = z.strictObject({
  name: visibleText(1, CHAIN_NAME_MAX),
  rootDebateId: UuidInput.meta({ description: "One of the caller's debates: the first of the chain" }),
});
export type CreateChainInput = z.infer<typeof CreateChainInput>;

export const ChainIdInput = z.object({ id: UuidInput });

/** POST /api/chains/:id/debates. */
export const AddChainDebateInput = z.strictObject({
  id: UuidInput,
  debateId: UuidInput.meta({ description: "One of the caller's debates, not yet in the chain" }),
  parentDebateId: UuidInput.meta({ description: 'A debate of the chain the new one follows' }),
  relationship: ChainRelationship,
});
export type AddChainDebateInput = z.infer<typeof AddChainDebateInput>;

/** What a chain shows of each of its debates: enough to follow the line of decisions. */
export const ChainDebateSummary = DebateSummary.extend({
  recommendation: Recommendation.nullable().meta({ description: 'null until the debate completed' }),
  confidence: z.number().min(0).max(1).nullable().meta({ description: '0–1; null until completed' }),
  oneLiner: z.string().nullable().meta({ description: 'null until the debate completed' }),
}).meta({ id: 'ChainDebateSummary' });
export type ChainDebateSummary = z.infer<typeof ChainDebateSummary>;

/**
 * One debate's place in a chain. The chain's nodes come as a flat list in the order they were added (the
 * root first); each names its parent and its children, so a client builds the tree without recursion.
 */
export const ChainNode = z
  .object({
    debateId: z.uuid(),
    parentDebateId: z.uuid().nullable().meta({ description: 'null for the root' }),
    relationship: ChainRelationship.nullable().meta({
      description: 'How it follows its parent; null for the root',
    }),
    order: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Place in the order of addition: 0 for the root, no gaps' }),
    depth: z.number().int().min(0).meta({ description: 'Steps from the root: 0 for the root' }),
    childDebateIds: z.array(z.uuid()).meta({ description: 'The debates that follow this one, in order' }),
    addedAt: z.iso.datetime(),
    debate: ChainDebateSummary.nullable().meta({
      description: 'null when the debate was deleted: its place (and its children) stay in the chain',
    }),
  })
  .meta({ id: 'ChainNode' });
export type ChainNode = z.infer<typeof ChainNode>;

export const Chain = z
  .object({
    id: z.uuid(),
    name: z.string(),
    userId: z.uuid(),
    rootDebateId: z.uuid(),
    debateCount: z.number().int().min(1).meta({ description: 'Debates of the chain, the root included' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().meta({ description: 'Last debate added (or creation)' }),
  })
  .meta({ id: 'Chain' });
export type Chain = z.infer<typeof Chain>;

/** GET /api/chains/:id: the chain and its debates as a flat tree, in the order they were added. */
export const ChainWithNodes = Chain.extend({
  nodes: z.array(ChainNode).meta({ description: 'Ordered by order; the root first' }),
}).meta({ id: 'ChainWithNodes' });
export type ChainWithNodes = z.infer<typeof ChainWithNodes>;

/** GET /api/chains: the caller's chains, newest first, without their nodes. */
export const ChainList = z.object({ chains: z.array(Chain) }).meta({ id: 'ChainList' });
export type ChainList = z.infer<typeof ChainList>;

/** GET /api/chains/:id/context: the chain summed up, to pass as the `context` of the next debate. */
export const ChainContext = z
  .object({
    chainId: z.uuid(),
    context: z
      .string()
      .max(CHAIN_CONTEXT_MAX)
      .meta({
        description: `At most ${CHAIN_CONTEXT_MAX} characters: the limit of a new debate's context`,
      }),
    nodes: z.number().int().min(0).meta({ description: 'Debates summed up (deleted ones are left out)' }),
    truncated: z.boolean().meta({ description: 'True when some text was shortened to fit' }),
  })
  .meta({ id: 'ChainContext' });
export type ChainContext = z.infer<typeof ChainContext>;
