import { Effect, Metric } from 'effect';
import type { JobEnding } from './job-endings.ts';

/** How this node's jobs ended, by ending (job-endings.ts): interruptions, hand-backs, leases lost … */
export const jobEndings = Metric.counter('verdict_engine_job_endings_total', {
  description:
    'Debate jobs this node handled, by how each ended (Completed, HeldElsewhere, Interrupted, ...)',
  incremental: true,
});

/** Debates this node brought to a final state, by that state: the failure rate's numerator and denominator. */
export const debatesFinished = Metric.counter('verdict_engine_debates_finished_total', {
  description: 'Debates this node stored a final state of, by status (completed, failed)',
  incremental: true,
});

/** The status a job's ending stored, when it stored one: an exhausted debate is failed for good. */
const finalStatusOf = (ending: JobEnding): 'completed' | 'failed' | null => {
  if (ending._tag === 'Completed') return ending.stored ? ending.status : null;
  return ending._tag === 'Exhausted' ? 'failed' : null;
};

/** Counts one job's ending, and the final state it stored if any. */
export const countEnding = (ending: JobEnding) =>
  Effect.gen(function* () {
    yield* Metric.update(Metric.withAttributes(jobEndings, { ending: ending._tag }), 1);
    const status = finalStatusOf(ending);
    if (status) yield* Metric.update(Metric.withAttributes(debatesFinished, { status }), 1);
  });

/** Both statuses a series at 0 from the node's start, so a failure ratio reads 0 rather than absent. */
export const finishedSeries = Effect.forEach(
  ['completed', 'failed'] as const,
  (status) => Metric.update(Metric.withAttributes(debatesFinished, { status }), 0),
  { discard: true },
);
