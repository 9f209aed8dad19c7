import { z } from 'zod';
import { TurnPosition } from './convergence.ts';
import { DebateMode, Recommendation, VerdictCalibration } from './debates.ts';
import { Citation } from './evidence.ts';

const AgentRef = z.object({ agent: z.string(), round: z.number().int().min(1) });

export const PanelMember = z.object({
  name: z.string(),
  role: z.string(),
  /** Model identifier; simulated agents say "simulated/…". */
  model: z.string(),
});
export type PanelMember = z.infer<typeof PanelMember>;

/**
 * Payloads of the debate stream, by event name. The first eight are the spec's; the others are what a live
 * view needs. Confidence is 0–1 here; the SSE layer sends the spec's whole-number percent.
 */
export const DebateEventData = {
  'debate.started': z.object({
    debateId: z.uuid(),
    mode: DebateMode,
    panel: z.array(PanelMember),
    rounds: z.number(),
  }),
  'round.started': z.object({ round: z.number().int().min(1), injected: z.array(z.string()) }),
  'agent.thinking': AgentRef,
  argument: AgentRef.extend({
    claimId: z.string(),
    content: z.string(),
    model: z.string(),
    position: TurnPosition.nullable().optional(),
    /** The passages it cites, as the engine checked them (evidence engine on; absent otherwise). */
    citations: z.array(Citation).optional(),
  }),
  rebuttal: AgentRef.extend({
    claimId: z.string(),
    content: z.string(),
    model: z.string(),
    targetAgent: z.string(),
    position: TurnPosition.nullable().optional(),
    citations: z.array(Citation).optional(),
  }),
  'agent.failed': AgentRef.extend({ reason: z.string() }),
  'debate.paused': z.object({ afterRound: z.number().int().min(0) }),
  'debate.resumed': z.object({}),
  'content.injected': z.object({ content: z.string(), forRound: z.number().int().min(1) }),
  /**
   * After every round: how far the panel's stated positions agree (0–1), and whether that stops the
   * debate early (`threshold` is null when the debate did not ask to stop when converged).
   */
  'round.converged': z.object({
    round: z.number().int().min(1),
    score: z.number().min(0).max(1),
    threshold: z.number().min(0).max(1).nullable(),
    stopping: z.boolean(),
  }),
  'synthesis.started': z.object({ skipped: z.boolean() }),
  verdict: z.object({
    recommendation: Recommendation,
    oneLiner: z.string(),
    confidence: z.number().min(0).max(1),
    /** Present when the owner's outcomes calibrate it (ARCHITECTURE.md, "Calibrated confidence"). */
    calibratedConfidence: z.number().min(0).max(1).optional(),
    calibration: VerdictCalibration.optional(),
    reasoning: z.string(),
  }),
  'debate.completed': z.object({ debateId: z.uuid(), status: z.literal('completed') }),
  'debate.failed': z.object({ debateId: z.uuid(), error: z.string(), code: z.string() }),
} as const;

export type DebateEventType = keyof typeof DebateEventData;

/**
 * The `data` of each message of a debate stream (SSE): the stored payloads, except that the verdict's
 * confidence and calibrated confidence are sent as the spec's whole-number percent (0.64 → 64).
 */
export const StreamEventData = {
  ...DebateEventData,
  verdict: DebateEventData.verdict.extend({
    confidence: z.number().int().min(0).max(100).meta({ description: 'Whole-number percent' }),
    calibratedConfidence: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .meta({ description: 'Whole-number percent, like confidence; absent when not calibrated' }),
  }),
} as const;
export type DebateEventPayload<T extends DebateEventType> = z.infer<(typeof DebateEventData)[T]>;

/** A union member per event type, so `switch (event.type)` narrows `data`. */
export type DebateEventBody = {
  [T in DebateEventType]: { type: T; data: DebateEventPayload<T> };
}[DebateEventType];

/**
 * An event as stored and published: numbered per debate from 1 without gaps, and scoped to the attempt
 * (a retried debate starts a new attempt), so a redelivered publish can be recognised and dropped.
 */
export type DebateEvent = DebateEventBody & { debateId: string; attempt: number; seq: number; at: string };

/**
 * The stable identifier of one agent message (an argument or rebuttal), which audience votes are keyed by:
 * the attempt, round and agent that spoke, as URL-safe text (`a1-r2-risk-analyst`). An agent speaks once per
 * round of an attempt, so it names exactly one message; migration 0010 gives stored events the same value
 * with the same rule in SQL.
 */
export const claimIdOf = (turn: { attempt: number; round: number; agent: string }) =>
  `a${turn.attempt}-r${turn.round}-${turn.agent.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** What a claimId looks like (claimIdOf); anything else cannot name a message. */
export const CLAIM_ID_PATTERN = /^a\d+-r\d+-[a-z0-9-]{1,100}$/;

/** NATS subject names. */
export const subjects = {
  events: (debateId: string) => `debate.${debateId}.events`,
  command: (debateId: string) => `debate.${debateId}.cmd`,
  jobs: 'debate.jobs',
  notifications: (userId: string) => `user.${userId}.notifications`,
} as const;
