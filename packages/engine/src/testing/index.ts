import type { Core, JobQueue } from '@verdict/core';
import { Effect } from 'effect';
import { type EngineNodeOptions, engineLayer, settingsOf } from '../layers.ts';
import { createEngineNode, type EngineNode } from '../node/engine-node.ts';
import type { SimulatedOptions } from '../providers/simulated.ts';
import { AttemptLog } from '../store/attempt-log.ts';
import { AttemptOutcome } from '../store/attempt-outcome.ts';
import { LeaseStore } from '../store/lease-store.ts';
import type { DebateOutcome, Lease } from '../store/records.ts';
import { reconcilePass } from '../workers/reconciler.ts';

/** The POSITION line a fake debater ends its reply with, so the engine reads a position from it. */
export { positionLine } from '../machine/position.ts';
export { type DebaterTurnRef, debaterTurnOf, isClassification, turnRefKey } from './debater-requests.ts';
export type { FakeCitation } from './fake-anthropic-citations.ts';
export {
  DEFAULT_FAKE_REPLY_TEXT,
  FAKE_EMBEDDING_DIMENSIONS,
  type FakeLlmServer,
  type FakeOutcome,
  type FakeProtocol,
  type FakeReply,
  type FakeRequest,
  type FakeRequestRecord,
  type FakeScript,
  fakeEmbedding,
  startFakeLlmServer,
} from './fake-llm-server.ts';
export { type JudgeVerdict, judgeVerdictJson } from './judge-verdict.ts';

/**
 * An engine node on a test core's own database and bus, on the SIMULATED provider with short timeouts.
 * Stop it before the core closes.
 */
export function startTestEngine(core: Core, simulated: SimulatedOptions = {}, slots = 8): EngineNode {
  const node = createEngineNode({
    db: core.db,
    bus: core.bus,
    clock: core.clock,
    slots,
    providerKeys: {},
    simulated,
    policy: { timeoutMs: 2000, retries: 1, backoffMs: 10 },
  });
  node.start();
  return node;
}

/** The engine's services on `core`'s database and bus, as node `nodeId` (a fresh id unless given). */
const layerOn = (core: Core, options: Partial<EngineNodeOptions> = {}, nodeId?: string) => {
  const all: EngineNodeOptions = {
    db: core.db,
    bus: core.bus,
    clock: core.clock,
    slots: 1,
    providerKeys: {},
    ...options,
  };
  const settings = settingsOf(all);
  return engineLayer(all, nodeId ? { ...settings, nodeId } : settings);
};

/** The engine store's parts as one node has them: its leases, its attempts' logs and their ends. */
type NodeStore = LeaseStore['Service'] & AttemptLog['Service'] & AttemptOutcome['Service'];

/** The engine store as node `nodeId` on `core`'s database, each call a promise: for tests of its statements. */
export type StoreAsNode = {
  [K in keyof NodeStore]: (
    ...args: Parameters<NodeStore[K]>
  ) => Promise<Effect.Success<ReturnType<NodeStore[K]>>>;
};

export function storeAsNode(core: Core, nodeId: string, leaseMs = 60_000): StoreAsNode {
  // One store, as a node has one: what calls made together write, its coalesced writes join.
  const store: Promise<NodeStore> = Effect.runPromise(
    Effect.gen(function* () {
      return { ...(yield* LeaseStore), ...(yield* AttemptLog), ...(yield* AttemptOutcome) };
    }).pipe(Effect.provide(layerOn(core, { leaseMs }, nodeId))),
  );
  return new Proxy({} as StoreAsNode, {
    get:
      (_target, name: keyof NodeStore) =>
      async (...args: unknown[]) =>
        Effect.runPromise(
          ((await store)[name] as (...a: unknown[]) => Effect.Effect<unknown, unknown>)(...args),
        ),
  });
}

/**
 * Stores the final state of an attempt as a node that holds `lease` would (with its refund, charge and
 * webhook): resolves with whether this call stored it. An unclaimed debate's lease epoch is 0.
 */
export const storeFinalState = (core: Core, lease: Lease, outcome: DebateOutcome): Promise<boolean> =>
  Effect.runPromise(
    AttemptOutcome.use((store) => store.finish(lease, outcome)).pipe(Effect.provide(layerOn(core))),
  );

/**
 * One reconciler pass as a node runs it, on `core`'s database and its bus (or `jobs` instead of its queue,
 * to watch or refuse re-queues): resolves with the number of debates re-queued, rejects as the pass failed.
 */
export function reconcileOnce(
  core: Core,
  staleAfterMs: number,
  jobs: JobQueue = core.bus.jobs,
): Promise<number> {
  const layer = layerOn(core, {
    bus: { ...core.bus, jobs },
    reconcile: { intervalMs: 60_000, staleAfterMs },
  });
  return Effect.runPromise(reconcilePass.pipe(Effect.provide(layer)));
}
