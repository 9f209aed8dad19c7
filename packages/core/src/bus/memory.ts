import type { DebateEvent, Notification } from '@verdict/contracts';
import {
  type Bus,
  COMMAND_TIMEOUT_MS,
  type CommandBus,
  type CommandReply,
  type DebateCommand,
  type DebateJob,
  type EventBus,
  type JobHandle,
  type JobQueue,
  type KeyCourier,
  type NotificationChannel,
} from './ports.ts';
import { currentTraceCarrier, jobTraceOf, type TraceCarrier } from './trace-carrier.ts';

/** In-process bus for embedded mode: same semantics as NATS, one process. */
export function memoryBus(): Bus {
  const events = memoryEventBus();
  const jobs = memoryJobQueue();
  const commands = memoryCommandBus();
  return {
    events,
    jobs,
    commands,
    keys: memoryKeyCourier(),
    notifications: memoryNotificationChannel(),
    ping: async () => {},
    close: async () => jobs.close(),
  };
}

function memoryEventBus(): EventBus {
  const logs = new Map<string, DebateEvent[]>();
  /** Each debate's last event, of whichever attempt: as JetStream's last message on its subject. */
  const last = new Map<string, DebateEvent>();
  const seen = new Set<string>();
  const listeners = new Map<string, Set<(e: DebateEvent) => void>>();
  const key = (debateId: string, attempt: number) => `${debateId}:${attempt}`;
  return {
    publish: async (event) => {
      const id = `${event.debateId}:${event.attempt}:${event.seq}`;
      if (seen.has(id)) return; // same dedupe as JetStream's message id
      seen.add(id);
      const k = key(event.debateId, event.attempt);
      const log = logs.get(k) ?? [];
      log.push(event);
      logs.set(k, log);
      last.set(event.debateId, event);
      for (const listener of listeners.get(k) ?? []) listener(event);
    },
    follow: async (debateId, attempt, afterSeq, onEvent) => {
      const k = key(debateId, attempt);
      for (const event of logs.get(k) ?? []) if (event.seq > afterSeq) onEvent(event);
      const set = listeners.get(k) ?? new Set();
      set.add(onEvent);
      listeners.set(k, set);
      return () => set.delete(onEvent);
    },
    lastSeq: async (debateId, attempt) => {
      const event = last.get(debateId);
      return event?.attempt === attempt ? event.seq : 0;
    },
  };
}

function memoryJobQueue(): JobQueue & { close: () => void } {
  // Jobs keep the carrier of the context that queued them, as NATS messages keep it in their headers.
  const waiting: {
    job: DebateJob;
    redelivered: boolean;
    enqueuedAt: number;
    carrier: TraceCarrier | undefined;
  }[] = [];
  const wakeups = new Set<() => void>();
  const wake = () => {
    for (const w of wakeups) w();
  };
  let closed = false;
  return {
    enqueue: async (job) => {
      waiting.push({ job, redelivered: false, enqueuedAt: Date.now(), carrier: currentTraceCarrier() });
      wake();
    },
    waiting: async () => waiting.length,
    consume: (slots, handle) => {
      let stopped = false;
      const workers = Array.from({ length: slots }, async () => {
        while (!stopped && !closed) {
          const next = waiting.shift();
          if (!next) {
            await new Promise<void>((resolve) => {
              const w = () => {
                wakeups.delete(w);
                resolve();
              };
              wakeups.add(w);
            });
            continue;
          }
          let settled = false;
          const { job, enqueuedAt, carrier } = next;
          const jobHandle: JobHandle = {
            job,
            redelivered: next.redelivered,
            enqueuedAt,
            trace: jobTraceOf(carrier),
            heartbeat: () => {},
            ack: async () => {
              settled = true;
            },
            retry: (delayMs) => {
              settled = true;
              setTimeout(() => {
                waiting.push({ job, redelivered: true, enqueuedAt, carrier });
                wake();
              }, delayMs).unref();
            },
          };
          try {
            await handle(jobHandle);
          } finally {
            // A handler that neither acked nor retried lost the job: give it back, as an ack wait would.
            if (!settled && !stopped) jobHandle.retry(0);
          }
        }
      });
      return {
        stop: async () => {
          stopped = true;
          wake();
          await Promise.all(workers);
        },
      };
    },
    close: () => {
      closed = true;
      wake();
    },
  };
}

function memoryCommandBus(): CommandBus {
  const handlers = new Map<string, (command: DebateCommand) => Promise<CommandReply | 'no_engine'>>();
  return {
    send: async (debateId, command, timeoutMs = COMMAND_TIMEOUT_MS) => {
      const handler = handlers.get(debateId);
      if (!handler) return 'no_engine';
      // As over NATS: a handler that throws, or does not answer in time, leaves the caller with nobody
      // running the debate.
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<'no_engine'>((resolve) => {
        timer = setTimeout(() => resolve('no_engine'), timeoutMs);
      });
      try {
        return await Promise.race([handler(command).catch(() => 'no_engine' as const), silent]);
      } finally {
        clearTimeout(timer);
      }
    },
    serve: async (debateId, handler) => {
      handlers.set(debateId, handler);
      return () => {
        if (handlers.get(debateId) === handler) handlers.delete(debateId);
      };
    },
  };
}

function memoryKeyCourier(): KeyCourier {
  const held = new Map<string, Record<string, string>>();
  return {
    hold: async (debateId, keys) => {
      held.set(debateId, keys);
      return () => held.delete(debateId);
    },
    fetch: async (debateId) => held.get(debateId) ?? null,
  };
}

function memoryNotificationChannel(): NotificationChannel {
  const listeners = new Map<string, Set<(notification: Notification) => void>>();
  return {
    publish: async (userId, notification) => {
      for (const listener of listeners.get(userId) ?? []) listener(notification);
    },
    subscribe: async (userId, onNotification) => {
      const own = listeners.get(userId) ?? new Set();
      own.add(onNotification);
      listeners.set(userId, own);
      return () => {
        own.delete(onNotification);
        if (own.size === 0 && listeners.get(userId) === own) listeners.delete(userId);
      };
    },
  };
}
