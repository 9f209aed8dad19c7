/**
 * What crosses between the main thread (pglite-thread.ts) and the database thread (pglite-thread-worker.ts):
 * the main thread's calls, the thread's answers and notifications, and errors with their fields.
 */

export type WireError = { message: string; name?: string; fields: Record<string, unknown> };

export type ThreadCall = { id: number } & (
  | { op: 'query'; sql: string; params: unknown[] | undefined; tx?: number | undefined }
  | { op: 'exec'; sql: string; tx?: number | undefined }
  | { op: 'begin'; tx: number }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'close' }
);

export type ThreadMessage =
  | { kind: 'ready' }
  | { kind: 'failed'; error: WireError }
  | { kind: 'answer'; id: number; value?: unknown; error?: WireError }
  | { kind: 'notification'; channel: string; payload: string };

/** A call before it is numbered. */
export type Call = ThreadCall extends infer C ? (C extends ThreadCall ? Omit<C, 'id'> : never) : never;

export const fromWire = (wire: WireError): Error =>
  Object.assign(new Error(wire.message), wire.name ? { name: wire.name } : {}, wire.fields);
