import { describe, expect, it } from 'vitest';
import { disposalOf, type JobEnding, RETRY_AFTER_TROUBLE_MS } from './job-endings.ts';

const lease = { debateId: 'd', attempt: 1, epoch: 3 };
const fresh = { redelivered: false, leaseMs: 6000 };
const redelivered = { redelivered: true, leaseMs: 6000 };
const job = (ending: JobEnding, situation = fresh) => disposalOf(ending, situation).job;

describe('what becomes of a job, by how it ended', () => {
  it('acks a stored final state; when another holder stored it first, warns and leaves the job to it', () => {
    expect(
      disposalOf({ _tag: 'Completed', status: 'completed', stored: true, published: true }, fresh),
    ).toEqual({ job: 'ack', log: ['info', 'completed'] });
    const overtaken = disposalOf(
      { _tag: 'Completed', status: 'failed', stored: false, published: false },
      fresh,
    );
    expect(overtaken.log?.[0]).toBe('warn');
    expect(overtaken.job).toBe('leave');
  });

  it('brings back the job of a debate whose final events were stored but not published, to publish them', () => {
    expect(job({ _tag: 'Completed', status: 'completed', stored: true, published: false })).toEqual({
      retryAfterMs: RETRY_AFTER_TROUBLE_MS,
    });
    expect(job({ _tag: 'Unpublished', cause: 'bus' })).toEqual({ retryAfterMs: RETRY_AFTER_TROUBLE_MS });
  });

  it("looks again at a live holder's own job once its lease would run out, and drops other copies", () => {
    expect(job({ _tag: 'HeldElsewhere', remainingMs: 1200 }, redelivered)).toEqual({ retryAfterMs: 1450 });
    expect(job({ _tag: 'HeldElsewhere', remainingMs: 1200 })).toBe('ack');
  });

  it('brings a copy of a job this node is running back a lease period later, never runs it twice', () => {
    expect(job({ _tag: 'DuplicateOnThisNode' })).toEqual({ retryAfterMs: 6000 });
  });

  it('hands a debate back with its lease released when the node stops or storage fails', () => {
    expect(disposalOf({ _tag: 'Stopping', lease }, fresh)).toMatchObject({
      release: true,
      job: { retryAfterMs: 0 },
    });
    expect(disposalOf({ _tag: 'Interrupted', lease, cause: 'storage' }, fresh)).toMatchObject({
      release: true,
      job: { retryAfterMs: RETRY_AFTER_TROUBLE_MS },
    });
    expect(job({ _tag: 'Unclaimable', cause: 'storage' })).toEqual({ retryAfterMs: RETRY_AFTER_TROUBLE_MS });
  });

  it('fails for good a debate interrupted too often, and leaves a lost lease to its new holder', () => {
    expect(job({ _tag: 'Exhausted', lease, interruptions: 5, cause: 'corrupt' })).toBe('failAndAck');
    // Not acked: the new holder may be running this very message (an ack of any delivery removes it).
    expect(disposalOf({ _tag: 'LeaseLost' }, redelivered)).toMatchObject({ job: 'leave' });
    expect(disposalOf({ _tag: 'LeaseLost' }, fresh)).toMatchObject({ job: 'leave' });
    expect(disposalOf({ _tag: 'LeaseLost' }, fresh).release).toBeUndefined();
    expect(disposalOf({ _tag: 'Cancelled', lease }, fresh)).toMatchObject({ release: true, job: 'ack' });
    expect(job({ _tag: 'Gone' })).toBe('ack');
  });
});
