import { z } from 'zod';
import { EarlyStopFields } from './convergence.ts';
import {
  ConvergencePoint,
  DebateCost,
  DebateMode,
  DebateStatus,
  Recommendation,
  StoppedEarly,
  Verdict,
  VerdictCalibration,
} from './debates.ts';
import { UuidInput } from './ids.ts';
import { visibleText } from './text.ts';

export const FundingSource = z.enum(['free_tier', 'user_credits', 'byok']);
export type FundingSource = z.infer<typeof FundingSource>;

/** The verdict as the debate object shows it; confidence 0–1. */
export const VerdictSummary = z
  .object({
    recommendation: Recommendation,
    confidence: z.number().min(0).max(1),
    calibratedConfidence: z.number().min(0).max(1).optional().meta({
      description:
        "The judge's confidence corrected by the owner's outcomes, 0–1; absent when not calibrated",
    }),
    calibration: VerdictCalibration.optional(),
    summary: z.string(),
    agentsUsed: z.array(z.string()).meta({ description: 'Model identifiers; simulated ones say so' }),
    totalRounds: z.number().int(),
    /** The panel's convergence after each round it spoke (absent on debates finished before it was measured). */
    convergence: z.array(ConvergencePoint).optional(),
    /** Set when the debate stopped before its last round because the positions converged. */
    stoppedEarly: StoppedEarly.optional(),
  })
  .meta({ id: 'VerdictSummary' });
export type VerdictSummary = z.infer<typeof VerdictSummary>;

/** The debate object of /api (spec: Debate). */
export const DebateObject = z
  .object({
    id: z.uuid(),
    question: z.string(),
    status: DebateStatus,
    mode: DebateMode.nullable(),
    fundingSource: FundingSource,
    isPublic: z.boolean(),
    agentCount: z.number().int().nullable(),
    roundCount: z.number().int().nullable(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
    ownerId: z.string(),
    workspaceId: z.string().nullable(),
    verdict: VerdictSummary.nullable(),
    cost: DebateCost.nullable().meta({
      description:
        'Once completed. To a reader outside the creator’s account and the debate’s workspace, only when the ' +
        'owner shows the cost on its share link (showCost); null otherwise',
    }),
  })
  .meta({ id: 'Debate' });
export type DebateObject = z.infer<typeof DebateObject>;

export const DebateIdInput = z.object({ id: UuidInput });

/**
 * POST /api/debates/:id/commands: `type` selects the variant; `inject` needs `payload.content`. One object
 * with a refinement rather than a union, because REST inputs must be objects.
 */
export const DebateCommandInput = z
  .object({
    id: UuidInput,
    type: z.enum(['pause', 'resume', 'skip', 'inject']),
    payload: z.object({ content: visibleText(1, 5000) }).optional(),
  })
  .superRefine((command, ctx) => {
    if (command.type === 'inject' && !command.payload) {
      ctx.addIssue({ code: 'custom', path: ['payload', 'content'], message: 'inject needs payload.content' });
    }
  });
export type DebateCommandInput = z.infer<typeof DebateCommandInput>;

export const DebateCommandResult = z.object({
  accepted: z.boolean(),
  /** The engine's state after the command, e.g. "running.paused". */
  state: z.string(),
  message: z.string().optional(),
});
export type DebateCommandResult = z.infer<typeof DebateCommandResult>;

/** GET /api/debates query. Numbers arrive as query strings and are coerced. */
export const DebateListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: DebateStatus.optional(),
  sortBy: z.enum(['createdAt', 'completedAt']).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  workspaceId: UuidInput.optional().meta({
    description: "A workspace's debates instead of the caller's own; the caller must be a member",
  }),
});
export type DebateListQuery = z.infer<typeof DebateListQuery>;

export const DebatePage = z
  .object({
    debates: z.array(DebateObject),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'DebatePage' });
export type DebatePage = z.infer<typeof DebatePage>;

const ChartTransition = z.object({
  event: z.string(),
  targets: z.array(z.string()),
  guard: z.string().nullable(),
});

/** A state the debate's actor entered, when, by which event, and on which engine node. */
const ChartTransitionRecord = z.object({
  at: z.string(),
  event: z
    .string()
    .meta({ description: '"xstate.restore" where a node restored the debate from its snapshot' }),
  state: z.string(),
  node: z.string().optional().meta({
    description: 'The engine node that ran the actor then: a change of node is a hand-over',
  }),
});

/** A stored event of the debate stream, as the stream sends it, with the time it was stored. */
const ChartEvent = z.object({
  seq: z.number().int(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  at: z.iso.datetime(),
});

/** GET /api/debates/:id/statechart: the machine as data, where this debate is, and how it got there. */
export const DebateStateChart = z
  .object({
    chart: z.object({
      id: z.string(),
      initial: z.string().nullable(),
      events: z.array(z.string()),
      states: z.array(
        z.object({
          path: z.string(),
          type: z.enum(['atomic', 'compound', 'parallel', 'final', 'history']),
          initial: z.string().nullable(),
          invokes: z.array(z.string()),
          transitions: z.array(ChartTransition),
        }),
      ),
    }),
    current: z.object({
      state: z.string(),
      /** True when an engine holds the debate now; otherwise the state its stored status implies. */
      live: z.boolean(),
    }),
    history: z.array(ChartTransitionRecord).meta({
      description:
        'Every state the actor entered, from the engine that holds it or, when none does, as stored with the ' +
        "attempt's last step: the same for a live, finished or restored debate",
    }),
    attempt: z
      .number()
      .int()
      .optional()
      .meta({ description: 'The attempt the history and events belong to' }),
    events: z
      .array(ChartEvent)
      .optional()
      .meta({ description: 'The stored events of the attempt, in order' }),
  })
  .meta({ id: 'DebateStateChart' });
export type DebateStateChart = z.infer<typeof DebateStateChart>;

export const DebatePresetName = z.enum(['hackathon', 'balanced', 'economy', 'deepseek', 'groq', 'mixed']);

/**
 * The panel and cache fields both create bodies take: the spec's on POST /api/debates, extensions on
 * POST /v1/verdicts (an optional parameter, which the spec's versioning lets a minor release add).
 */
const PanelFields = {
  agentCount: z
    .number()
    .int()
    .min(2)
    .max(7)
    .optional()
    .meta({
      description:
        "Agents instead of the mode's (fast 3, balanced 5, thorough 8). Never cheaper than the mode; a panel " +
        "larger than the mode's costs ⌊agents × rounds ÷ 3⌋ credits",
    }),
  maxRounds: z.number().int().min(1).max(5).optional().meta({
    description: "Rounds instead of the mode's (fast 1, balanced 2, thorough 3); priced as agentCount says",
  }),
  skipCache: z.boolean().optional().meta({
    description:
      'Run afresh even when an identical debate of yours completed recently (a cached answer is free)',
  }),
};

/** POST /api/debates. */
export const CreateDebateInput = z.strictObject({
  question: visibleText(10, 2000),
  mode: DebateMode.optional().meta({
    description: "Default fast; in a workspace, the workspace's defaultDebateMode",
  }),
  context: visibleText(1, 5000).optional(),
  ...PanelFields,
  enableSearch: z.boolean().optional(),
  attachmentIds: z.array(UuidInput).max(5).optional(),
  workspaceId: UuidInput.optional().meta({
    description: "Create it in this workspace (member or above): its members read it; its owner's plan pays",
  }),
  preset: DebatePresetName.optional(),
  ...EarlyStopFields,
});
export type CreateDebateInput = z.infer<typeof CreateDebateInput>;

/** POST /v1/verdicts. `options` (2–5) makes it a comparison, priced as such. */
export const CreateVerdictInput = z.strictObject({
  question: visibleText(1, 2000),
  mode: DebateMode.default('balanced'),
  context: visibleText(1, 5000).optional(),
  options: z.array(visibleText(1, 200)).min(2).max(5).optional(),
  tags: z.array(visibleText(1, 50)).max(20).optional(),
  ...PanelFields,
  ...EarlyStopFields,
});
export type CreateVerdictInput = z.infer<typeof CreateVerdictInput>;

const ProviderKeysHeader = z
  .string()
  .max(4000)
  .optional()
  .meta({
    description:
      'BYOK plans: your provider keys, used in memory only and never stored, as `openai:sk-…,anthropic:sk-ant-…` ' +
      'or a JSON object `{"openai":"sk-…"}` (providers openai, anthropic, google). Other plans: 402 BYOK_REQUIRED.',
  });

/** Request headers of the create routes (documented; read by the routes themselves). */
export const CreateDebateHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/)
    .optional()
    .meta({
      description:
        'The same key and body within 24 h answer the first debate, charged once; another body is 409 CONFLICT',
    }),
  'X-Provider-Keys': ProviderKeysHeader,
});

/** Request headers of a retry: a BYOK debate's keys were never stored, so a retry sends them again. */
export const RetryDebateHeaders = z.object({ 'X-Provider-Keys': ProviderKeysHeader });

export const CreatedDebate = z
  .object({
    debateId: z.uuid(),
    streamUrl: z.string(),
    /** Free-plan responses name the (lighter) judge model. */
    judgeModel: z.string().optional(),
    /** True when an identical recent debate answered (no new debate, no charge). */
    cached: z.boolean(),
  })
  .meta({ id: 'CreatedDebate' });
export type CreatedDebate = z.infer<typeof CreatedDebate>;

/** GET /v1/verdicts query. */
export const VerdictListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(['pending', 'running', 'completed', 'failed']).optional(),
  mode: DebateMode.optional(),
  sortBy: z.enum(['createdAt', 'completedAt']).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  search: visibleText(1, 200).optional(),
});
export type VerdictListQuery = z.infer<typeof VerdictListQuery>;

/** GET /v1/verdicts/:id: the debate and, once completed, the full public verdict (confidence in percent). */
export const VerdictDetail = z
  .object({
    debate: DebateObject,
    verdict: Verdict.extend({
      confidence: z.number().int().min(0).max(100).meta({ description: 'Whole-number percent' }),
      calibratedConfidence: z
        .number()
        .int()
        .min(0)
        .max(100)
        .optional()
        .meta({ description: 'Whole-number percent, like confidence; absent when not calibrated' }),
    }).nullable(),
  })
  .meta({ id: 'VerdictDetail' });
export type VerdictDetail = z.infer<typeof VerdictDetail>;

export const DeletedVerdict = z.object({ id: z.uuid(), deleted: z.literal(true) });

export const RetryResult = z.object({
  debateId: z.uuid(),
  attempt: z.number().int(),
  status: z.literal('pending'),
});

/** POST /api/debates/:id/fork. */
export const ForkInput = z.strictObject({
  id: UuidInput,
  modifiedQuestion: visibleText(10, 500).optional(),
});

/** GET /api/debates/:id/analytics. Durations in ms; token counts summed over the current attempt. */
export const DebateAnalytics = z
  .object({
    debateId: z.uuid(),
    status: DebateStatus,
    durationMs: z.number().int().nullable(),
    rounds: z.number().int().nullable(),
    agents: z.array(
      z.object({
        agent: z.string(),
        model: z.string(),
        turns: z.number().int(),
        inputTokens: z.number().int(),
        outputTokens: z.number().int(),
      }),
    ),
    cost: DebateCost.nullable(),
    /** The caller's completed debates, for comparison. */
    averages: z.object({
      debates: z.number().int(),
      durationMs: z.number().nullable(),
      rounds: z.number().nullable(),
      inputTokens: z.number().nullable(),
      outputTokens: z.number().nullable(),
    }),
  })
  .meta({ id: 'DebateAnalytics' });
export type DebateAnalytics = z.infer<typeof DebateAnalytics>;
