import { z } from 'zod';

/** What a caller says became of a decision (spec: Outcome). */
export const OutcomeStatus = z.enum(['correct', 'partially_correct', 'wrong', 'too_early']);
export type OutcomeStatus = z.infer<typeof OutcomeStatus>;

/** Where an outcome record stands: pending until told, then what it was told, or skipped. */
export const OutcomeState = z.enum([
  'pending',
  'correct',
  'partially_correct',
  'wrong',
  'too_early',
  'skipped',
]);
export type OutcomeState = z.infer<typeof OutcomeState>;

/** The resolved states: the only ones a score counts. */
export const RESOLVED_OUTCOMES = ['correct', 'partially_correct', 'wrong'] as const;
export type ResolvedOutcome = (typeof RESOLVED_OUTCOMES)[number];

/** A debate's subject area, classified once when it completes (filters and breakdowns). */
export const DebateDomain = z.enum([
  'business',
  'technology',
  'health',
  'legal',
  'personal',
  'finance',
  'education',
  'other',
]);
export type DebateDomain = z.infer<typeof DebateDomain>;

export const OUTCOME_NOTES_MAX = 500;

/** POST /api/debates/:id/outcome. */
export const RecordOutcomeInput = z.object({
  outcomeStatus: OutcomeStatus,
  outcomeNotes: z.string().trim().max(OUTCOME_NOTES_MAX).optional(),
  satisfactionScore: z.number().int().min(1).max(5).optional(),
});
export type RecordOutcomeInput = z.infer<typeof RecordOutcomeInput>;

/** PATCH /api/debates/:id/outcome/reminder. */
export const OutcomeReminderInput = z.object({
  reminderAt: z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 date-time, with a zone' }),
});
export type OutcomeReminderInput = z.infer<typeof OutcomeReminderInput>;

/** An outcome record: the submitted fields (spec) and, as this service's design, its debate and verdict. */
export const OutcomeRecord = z
  .object({
    debateId: z.uuid(),
    question: z.string(),
    domain: DebateDomain,
    /** The verdict's confidence (0–1) the score compares with what happened. */
    confidence: z.number(),
    recommendation: z.string(),
    outcomeStatus: OutcomeState,
    outcomeNotes: z.string().nullable(),
    satisfactionScore: z.number().int().nullable(),
    reminderAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    /** When it was last told an outcome (or skipped); null while pending. */
    recordedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'OutcomeRecord' });
export type OutcomeRecord = z.infer<typeof OutcomeRecord>;

/** GET /api/outcomes/pending: due reminders first, then the oldest. */
export const PendingOutcomes = z.object({ outcomes: z.array(OutcomeRecord) }).meta({ id: 'PendingOutcomes' });
export type PendingOutcomes = z.infer<typeof PendingOutcomes>;

export const OutcomeHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
  domain: DebateDomain.optional(),
});
export type OutcomeHistoryQuery = z.infer<typeof OutcomeHistoryQuery>;

export const OutcomeHistory = z
  .object({
    outcomes: z.array(OutcomeRecord),
    limit: z.number().int(),
    offset: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'OutcomeHistory' });
export type OutcomeHistory = z.infer<typeof OutcomeHistory>;

/** GET /api/scores/me (spec: Decision score). */
export const DecisionScore = z
  .object({
    brierScore: z.number(),
    totalTracked: z.number().int(),
    totalResolved: z.number().int(),
    domainScores: z.record(z.string(), z.number()),
    accuracyPercentage: z.number(),
    streak: z.number().int(),
  })
  .meta({ id: 'DecisionScore' });
export type DecisionScore = z.infer<typeof DecisionScore>;

export const TrendQuery = z.object({ days: z.coerce.number().int().min(1).max(3650).default(90) });
export type TrendQuery = z.infer<typeof TrendQuery>;

export const TrendPoint = z
  .object({
    date: z.iso.datetime(),
    brierScore: z.number(),
    rollingAccuracy: z.number(),
    sampleSize: z.number().int(),
  })
  .meta({ id: 'TrendPoint' });
export type TrendPoint = z.infer<typeof TrendPoint>;

export const CalibrationBucket = z
  .object({
    /** [from, to): a 0.1-wide range of verdict confidence (the last one includes 1.0). */
    predictedRange: z.array(z.number()).length(2),
    actualRate: z.number(),
    count: z.number().int(),
  })
  .meta({ id: 'CalibrationBucket' });
export type CalibrationBucket = z.infer<typeof CalibrationBucket>;

/** One 0.1-wide bucket of a reliability diagram: verdicts predicted in the range, and how often they came true. */
export const ReliabilityBucket = z
  .object({
    /** [from, to): the range of the predicted confidence (the last one includes 1.0). */
    predictedRange: z.array(z.number()).length(2),
    count: z.number().int(),
    /** The mean predicted confidence of the bucket's verdicts, 0–1. */
    meanPredicted: z.number(),
    /** The mean outcome (correct 1, partially 0.5, wrong 0): the hit rate. */
    actualRate: z.number(),
  })
  .meta({ id: 'ReliabilityBucket' });
export type ReliabilityBucket = z.infer<typeof ReliabilityBucket>;

/**
 * GET /api/scores/calibration: the caller's resolved outcomes bucketed by the judge's raw confidence and by the
 * calibrated confidence the caller's current curves give them, with the Brier score of each, and the curve.
 */
export const CalibrationComparison = z
  .object({
    /** Resolved outcomes compared (the newest, up to the fit window). */
    resolved: z.number().int(),
    raw: z.array(ReliabilityBucket),
    /** [] while no curve is applied. */
    calibrated: z.array(ReliabilityBucket),
    brier: z.object({ raw: z.number().nullable(), calibrated: z.number().nullable() }),
    curve: z.object({
      /** Whether new verdicts of the caller carry a calibrated confidence. */
      applied: z.boolean(),
      method: z.literal('platt-shrinkage'),
      /** Resolved outcomes needed before anything is calibrated. */
      minimum: z.number().int(),
      /** Resolved outcomes the owner curve was fitted on (0 when none is). */
      basedOn: z.number().int(),
      /** Domains with a curve of their own, and the outcomes each was fitted on. */
      domains: z.array(z.object({ domain: DebateDomain, basedOn: z.number().int() })),
      fittedAt: z.iso.datetime().nullable(),
    }),
  })
  .meta({ id: 'CalibrationComparison' });
export type CalibrationComparison = z.infer<typeof CalibrationComparison>;

export const DomainTrend = z.enum(['improving', 'stable', 'declining']);
export type DomainTrend = z.infer<typeof DomainTrend>;

export const DomainAccuracy = z
  .object({ domain: DebateDomain, brierScore: z.number(), sampleSize: z.number().int(), trend: DomainTrend })
  .meta({ id: 'DomainAccuracy' });
export type DomainAccuracy = z.infer<typeof DomainAccuracy>;

export const Milestone = z.object({
  count: z.number().int(),
  reached: z.boolean(),
  reachedAt: z.iso.datetime().optional(),
});
export type Milestone = z.infer<typeof Milestone>;

/** GET /api/streaks. */
export const Streaks = z
  .object({
    currentStreak: z.number().int(),
    longestStreak: z.number().int(),
    totalDebates: z.number().int(),
    milestones: z.array(Milestone),
  })
  .meta({ id: 'Streaks' });
export type Streaks = z.infer<typeof Streaks>;

export const MILESTONES = [10, 25, 50, 100, 250, 500] as const;
