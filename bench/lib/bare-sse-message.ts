/**
 * What the bare SSE servers (bench/servers/bare-sse.ts) are told to publish and send: kept apart from
 * lib/bare-sse.ts so the servers load nothing of the service.
 */

/** One event of a schedule: published `offsetMs` after the first, `bytes` long on the wire. */
export type BareEvent = { seq: number; type: string; offsetMs: number; bytes: number };

export type BarePublished = {
  type: 'published';
  /** Each event's publish time (epoch ms): when it was due, so a late timer or fan-out counts against the server. */
  published: { seq: number; publishAt: number }[];
  /** Streams held when the schedule started. */
  streams: number;
};

/**
 * An event's SSE message, `bytes` long where its fields leave room (the API's message of the same event
 * was that long): `id`, `event`, and data carrying the publish time, padded.
 */
export function bareMessage(event: BareEvent, publishAt: number): Buffer {
  const head = `id: ${event.seq}\nevent: ${event.type}\ndata: {"publishAt":${publishAt},"pad":"`;
  const tail = '"}\n\n';
  const pad = Math.max(0, event.bytes - Buffer.byteLength(head) - tail.length);
  return Buffer.from(`${head}${'x'.repeat(pad)}${tail}`);
}
