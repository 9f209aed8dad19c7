import { createTestCore, type TestCore } from '@verdict/core/testing';
import { Effect, Layer } from 'effect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monotonicMs } from '../clock.ts';
import { type EngineNodeOptions, engineLayer, settingsOf } from '../layers.ts';
import type { LlmProvider, LlmRequest } from '../providers/port.ts';
import { simulatedProvider } from '../providers/simulated.ts';
import { LeaseStore } from '../store/lease-store.ts';
import { behindLease, LeaseKeeper } from './lease-keeper.ts';

const LEASE_MS = 1000;
const HEARTBEAT_MS = 200;

/**
 * A node's provider calls wait until its lease is known to hold. Found by a chaos run: an engine woken from a
 * pause past its lease had a debater's answer in hand, moved on to the next round at once and asked for two
 * turns the node that took the debate over had stored 1.5 s before; its renewal found the lease lost only
 * after. Here the node "wakes" with a claim older than the lease period, as a paused node does.
 */
describe('provider calls behind the lease', () => {
  let test: TestCore;
  let ownerId: string;

  beforeAll(async () => {
    test = await createTestCore();
    const owner = await test.core.accounts.createUser({ email: 'lease@example.com', name: 'Lease' });
    ownerId = owner.id;
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  /** A debate nobody runs, claimed by this node: the lease and the keeper's hold on it. */
  const claimedDebate = async (claimedAgoMs: number, takenOver: boolean) => {
    const [row] = await test.core.db.execute<{ id: string }>(
      `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds)
       values (?, 'Who may ask while the lease is in doubt?', 'fast', 'running', 'user_credits', 2, 1)
       returning id`,
      [ownerId],
    );
    const options: EngineNodeOptions = {
      db: test.core.db,
      bus: test.core.bus,
      clock: test.core.clock,
      slots: 1,
      providerKeys: {},
      leaseMs: LEASE_MS,
      heartbeatMs: HEARTBEAT_MS,
    };
    const layer = LeaseKeeper.layer.pipe(Layer.provideMerge(engineLayer(options, settingsOf(options))));
    const calls: LlmRequest[] = [];
    const simulated = simulatedProvider();
    const provider: LlmProvider = {
      name: 'counted',
      complete: (request) => {
        calls.push(request);
        return simulated.complete(request);
      },
    };
    const debateId = row?.id as string;
    return { debateId, layer, calls, provider, claimedAgoMs, takenOver };
  };

  /** Claims the debate, holds it as a job would, and asks once behind the lease; the ask's outcome. */
  const askBehindLease = (setup: Awaited<ReturnType<typeof claimedDebate>>) =>
    Effect.scoped(
      Effect.gen(function* () {
        const store = yield* LeaseStore;
        const keeper = yield* LeaseKeeper;
        const claim = yield* store.claim({ debateId: setup.debateId, attempt: 1 });
        if (claim.kind !== 'claimed') return yield* Effect.die(new Error(`not claimed: ${claim.kind}`));
        if (setup.takenOver) {
          // Another node claimed it while this one slept.
          yield* Effect.promise(() =>
            test.core.db.execute(
              `update debates set lease_epoch = lease_epoch + 1, lease_owner = 'the-next-holder',
                 lease_expires_at = now() + interval '1 hour' where id = ?`,
              [setup.debateId],
            ),
          );
        }
        // A job told its lease is lost stops its actor, which aborts the calls in flight.
        const stopped = new AbortController();
        let lost = false;
        const held = yield* keeper.keep(
          claim.lease,
          () => {
            lost = true;
            stopped.abort(new Error('lease lost'));
          },
          (yield* monotonicMs) - setup.claimedAgoMs,
        );
        const startedAt = Date.now();
        const asked = yield* Effect.promise(() =>
          behindLease(setup.provider, held)
            .complete({
              task: 'debater',
              model: 'simulated/sonnet',
              system: 'You argue one side.',
              prompt: 'Who may ask while the lease is in doubt?',
              maxTokens: 200,
              json: false,
              signal: stopped.signal,
            })
            .then(
              () => 'answered' as const,
              () => 'refused' as const,
            ),
        );
        return { asked, lost, waitedMs: Date.now() - startedAt };
      }),
    ).pipe(Effect.provide(setup.layer));

  it('asks at once while the claim vouches for the lease', async () => {
    const setup = await claimedDebate(0, false);
    const outcome = await Effect.runPromise(askBehindLease(setup));
    expect(outcome).toMatchObject({ asked: 'answered', lost: false });
    expect(outcome.waitedMs).toBeLessThan(HEARTBEAT_MS);
    expect(setup.calls).toHaveLength(1);
  });

  it('waits, once the lease is in doubt, for the renewal that finds it still held, then asks', async () => {
    const setup = await claimedDebate(LEASE_MS * 2, false);
    const outcome = await Effect.runPromise(askBehindLease(setup));
    expect(outcome).toMatchObject({ asked: 'answered', lost: false });
    // The first renewal comes a heartbeat after the hold begins.
    expect(outcome.waitedMs).toBeGreaterThanOrEqual(HEARTBEAT_MS - 20);
    expect(setup.calls).toHaveLength(1);
  });

  it('never asks when the renewal finds the lease taken over while the node slept', async () => {
    const setup = await claimedDebate(LEASE_MS * 2, true);
    const outcome = await Effect.runPromise(askBehindLease(setup));
    expect(outcome).toMatchObject({ asked: 'refused', lost: true });
    expect(setup.calls).toHaveLength(0);
  });
});
