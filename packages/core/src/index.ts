export type { Accounts, IssuedSession, NewUser } from './accounts/accounts.ts';
export { chooseFunding } from './billing/funding.ts';
export { memoryBus } from './bus/memory.ts';
export type { NatsBus, NatsBusOptions } from './bus/nats.ts';
export { natsBus } from './bus/nats-on-demand.ts';
export type {
  Bus,
  CommandBus,
  CommandReply,
  DebateCommand,
  DebateJob,
  EventBus,
  JobHandle,
  JobQueue,
  KeyCourier,
} from './bus/ports.ts';
export { type Config, ConfigError, loadConfig } from './config/config.ts';
export { type Core, type CoreOptions, createCore } from './core.ts';
export { openServiceDatabase as openDatabase } from './database.ts';
export type { Database, OpenDatabaseOptions } from './db/orm.ts';
export { defaultTemplatesDir, prepareTemplate } from './db/pglite-template.ts';
export {
  type CreateDebateRequest,
  type CreateDebateResult,
  createDebateCreator,
} from './debates/create-debate.ts';
export type { Debate } from './debates/debate.entity.ts';
export { createDebateControl, type DebateChart } from './debates/debate-control.ts';
export { createDebateReads, type DebateReads } from './debates/debate-reads.ts';
export {
  createDebateRecords,
  type DebateOutcome,
  type DebateRecords,
  type NewDebate,
} from './debates/debate-records.ts';
export { toDebateObject } from './debates/debate-view.ts';
export { type ByokKeys, parseProviderKeysHeader } from './debates/provider-keys-header.ts';
export {
  DataDirInUseError,
  type DataDirLock,
  type LockHolder,
  type LockRole,
  liveHolder,
  lockDataDir,
} from './embedded/data-dir-lock.ts';
export { type Chart, describeChart } from './engine/chart.ts';
export { engineNodeFor } from './engine/engine-for-core.ts';
export { createEngineNode, type EngineNode, type EngineNodeOptions } from './engine/engine-node.ts';
export * from './engine/llm/index.ts';
export { LlmCallError, type LlmProvider, type LlmRequest, type LlmResponse } from './engine/llm/port.ts';
export { SIMULATED_LABEL, type SimulatedOptions, simulatedProvider } from './engine/llm/simulated.ts';
export { type CallPolicy, callLlm, DEFAULT_CALL_POLICY, ProviderFailure } from './engine/llm-call.ts';
export { DebateFailure, type DebateInput, debateMachine } from './engine/machine.ts';
export { panelSize, type Seat, seatPanel } from './engine/panel.ts';
export { type EngineDeps, type RunningDebate, startDebate, statePath } from './engine/run-debate.ts';
export type { ApiKeys, KeyPrincipal } from './keys/api-keys.ts';
export { KEY_PREFIX } from './keys/api-keys.ts';
export { createLogger, type Logger, type LoggerSettings, serializeError } from './observability/logger.ts';
export { type CounterStore, memoryCounterStore, postgresCounterStore } from './ratelimit/counter-store.ts';
export { hitFixedWindow, hitSlidingWindow, type LimitDecision } from './ratelimit/limiters.ts';
export {
  accountRateLimit,
  createRateLimits,
  LOGIN_FAILURE_LIMITS,
  PUBLIC_IP_LIMIT,
  type RateLimits,
  type RequestPrincipal,
  rateLimitedError,
  rateLimitHeaders,
} from './ratelimit/rate-limits.ts';
export * from './routing/index.ts';
export { AppError, type AppErrorOptions } from './shared/app-error.ts';
export { type Clock, systemClock } from './shared/clock.ts';
export { OperatorError } from './shared/operator-error.ts';
