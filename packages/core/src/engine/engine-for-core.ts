import type { Core } from '../core.ts';
import { createEngineNode, type EngineNode, type EngineNodeOptions } from './engine-node.ts';

/** An engine node configured from a process's Core and Config: what both composition roots start. */
export function engineNodeFor(core: Core, log?: EngineNodeOptions['log']): EngineNode {
  const { config } = core;
  return createEngineNode({
    db: core.db,
    bus: core.bus,
    clock: core.clock,
    slots: config.engine.slots,
    providerKeys: config.providers.keys,
    providerOptions: { baseUrls: config.providers.baseUrls },
    simulated: {
      firstTokenMs: config.simulated.firstTokenMs,
      tokensPerSecond: config.simulated.tokensPerSecond,
    },
    policy: { timeoutMs: config.engine.llmTimeoutMs, retries: 3, backoffMs: 500 },
    leaseMs: config.engine.jobAckWaitMs,
    heartbeatMs: Math.max(200, Math.floor(config.engine.jobAckWaitMs / 3)),
    storageToleranceMs: config.engine.storageToleranceMs,
    maxInterruptions: config.engine.maxInterruptions,
    reconcile: { intervalMs: config.engine.reconcileIntervalMs, staleAfterMs: config.engine.staleAfterMs },
    // In embedded mode this is the only node: debates an earlier run left unfinished are its to resume.
    exclusive: config.nats.kind === 'memory',
    ...(log ? { log } : {}),
  });
}
