import type { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import { type Call, fromWire, type ThreadMessage } from './pglite-thread-wire.ts';

type Waiting = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** The main thread's side of one database thread: its worker, the calls waiting on it, the listeners. */
export type Thread = {
  worker: Worker;
  /** Settled by the thread's first word: its database is open, or could not be. */
  ready: PromiseWithResolvers<void>;
  waiting: Map<number, Waiting>;
  listeners: Map<string, Set<(payload: string) => void>>;
  nextId: number;
  nextTx: number;
  gone: Error | null;
  closing: boolean;
};

/** A message of the thread: it is ready or failed to start, a call's answer, or a notification. */
export function hear(thread: Thread, message: ThreadMessage) {
  if (message.kind === 'ready') thread.ready.resolve();
  else if (message.kind === 'failed') thread.ready.reject(fromWire(message.error));
  else if (message.kind === 'notification') {
    for (const listener of thread.listeners.get(message.channel) ?? []) listener(message.payload);
  } else {
    const call = thread.waiting.get(message.id);
    thread.waiting.delete(message.id);
    if (message.error) call?.reject(fromWire(message.error));
    else call?.resolve(message.value);
  }
}

/** A thread that dies fails what waits on it and every later call: a 500, never a hang. */
export function fail(thread: Thread, error: Error) {
  thread.gone ??= error;
  thread.ready.reject(error);
  for (const call of thread.waiting.values()) call.reject(error);
  thread.waiting.clear();
}

/** Sends `request` to the thread; its answer, or its error with the error's fields. */
export function call<T>(thread: Thread, request: Call): Promise<T> {
  if (thread.gone) return Promise.reject(thread.gone);
  const { worker, waiting } = thread;
  const id = thread.nextId++;
  if (waiting.size === 0) worker.ref();
  const settled = () => {
    if (waiting.size === 0 && !thread.closing) worker.unref();
  };
  return new Promise<T>((resolve, reject) => {
    waiting.set(id, {
      resolve: (value) => {
        resolve(value as T);
        settled();
      },
      reject: (error) => {
        reject(error);
        settled();
      },
    });
    try {
      worker.postMessage({ ...request, id });
    } catch (error) {
      // A parameter that cannot be cloned (a function, say): this call fails, the rest go on.
      const pending = waiting.get(id);
      waiting.delete(id);
      pending?.reject(error as Error);
    }
  });
}

export const query = <T>(thread: Thread, sql: string, params?: unknown[], tx?: number) =>
  call<Results<T>>(thread, { op: 'query', sql, params, tx });

export const exec = (thread: Thread, sql: string, tx?: number) =>
  call<Results[]>(thread, { op: 'exec', sql, tx });

/** `onNotification` hears the channel until the returned stop; the thread listens while anyone here does. */
export async function listen(thread: Thread, channel: string, onNotification: (payload: string) => void) {
  let set = thread.listeners.get(channel);
  if (!set) {
    set = new Set();
    thread.listeners.set(channel, set);
    await call(thread, { op: 'listen', channel });
  }
  set.add(onNotification);
  return async () => {
    set.delete(onNotification);
    if (set.size === 0 && thread.listeners.get(channel) === set) {
      thread.listeners.delete(channel);
      await call(thread, { op: 'unlisten', channel });
    }
  };
}

/** Closes the database and waits for the thread to exit. */
export async function close(thread: Thread) {
  if (thread.gone) return;
  // Held until it has exited: a process with nothing else to do (a template's build) would end first.
  thread.closing = true;
  thread.worker.ref();
  const exited = new Promise((resolve) => thread.worker.once('exit', resolve));
  await call(thread, { op: 'close' });
  await exited;
}
