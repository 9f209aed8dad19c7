/**
 * The debate engine: each debate an XState actor whose steps are Effect programs (machine/, runner/), the
 * store that owns every write about a running debate (store/), durable replay (replay/), the node that runs
 * jobs (node/), the LLM providers it calls (providers/) and the background workers (workers/).
 */
export type { EngineNodeOptions } from './layers.ts';
export { type Chart, describeChart, stateOfStatus } from './machine/chart.ts';
export { type Seat, seatPanel } from './machine/panel.ts';
export { createEngineNode, type EngineNode, engineNodeFor } from './node/engine-node.ts';
export { createEmbedder } from './providers/embedders.ts';
export type { LlmProvider, LlmRequest, LlmResponse } from './providers/port.ts';
export { SIMULATED_LABEL, type SimulatedOptions, simulatedProvider } from './providers/simulated.ts';
export type { CallPolicy } from './runner/llm-call.ts';
/** The actor without a node (no storage, no bus): for benchmarks of the machine and its Effect steps. */
export { type RunningDebate, startDebate } from './runner/run-debate.ts';
export type { WebhookDeliveryOptions } from './workers/webhook-worker.ts';
