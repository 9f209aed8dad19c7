import { describe, expect, it } from 'vitest';
import { VerdictError } from './errors.ts';
import { parseSse, reconnectingSse } from './sse.ts';

/** A body delivered in the given chunks, as a network may split it. */
const body = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

const all = async (stream: ReadableStream<Uint8Array>) => {
  const messages = [];
  for await (const message of parseSse(stream)) messages.push(message);
  return messages;
};

describe('the SSE parser', () => {
  it('reads messages split anywhere across chunks, with ids, names, comments and CRLF line ends', async () => {
    const messages = await all(
      body(
        ': keep-alive\n\nid: 1\nevent: argu',
        'ment\ndata: {"a":',
        '1}\n\r\nid: 2\r\nevent: verdict\r\ndata: {}\r\n\r\n',
      ),
    );
    expect(messages).toEqual([
      { id: '1', event: 'argument', data: '{"a":1}' },
      { id: '2', event: 'verdict', data: '{}' },
    ]);
  });

  it('joins multi-line data, keeps the last id for messages without one, and reads retry', async () => {
    const messages = await all(body('id: 7\ndata: one\ndata: two\n\nretry: 2500\ndata: three\n\n'));
    expect(messages).toEqual([
      { id: '7', event: 'message', data: 'one\ntwo' },
      { id: '7', event: 'message', data: 'three', retry: 2500 },
    ]);
  });

  it('drops a message cut off before its blank line (the connection broke)', async () => {
    expect(await all(body('id: 1\ndata: {}\n\nid: 2\ndata: {"half'))).toHaveLength(1);
  });

  it('hears a retry in a block without data, the last thing a server that is shutting down sends', async () => {
    const heard: number[] = [];
    const messages = [];
    for await (const message of parseSse(body('id: 3\ndata: {}\n\nretry: 750\n: shutting down\n\n'), (ms) =>
      heard.push(ms),
    )) {
      messages.push(message);
    }
    expect(messages).toEqual([{ id: '3', event: 'message', data: '{}' }]);
    expect(heard).toEqual([750]);
  });
});

describe('the reconnecting stream', () => {
  it("resumes after the server's retry hint, not its own back-off, from the last event id", async () => {
    const connects: { lastEventId: string | null; at: number }[] = [];
    const answers = ['id: 1\nevent: a\ndata: {}\n\nretry: 40\n\n', 'id: 2\nevent: last\ndata: {}\n\n'];
    const connect = async (lastEventId: string | null) => {
      connects.push({ lastEventId, at: performance.now() });
      return new Response(body(answers[connects.length - 1] ?? ''), { status: 200 });
    };
    const events = [];
    // A back-off of 10 s would time the test out: only the hint makes it reconnect at once.
    const options = { backoff: { initialDelayMs: 10_000 } };
    for await (const message of reconnectingSse(connect, (m) => m.event === 'last', options)) {
      events.push(message.event);
    }
    expect(events).toEqual(['a', 'last']);
    expect(connects.map((c) => c.lastEventId)).toEqual([null, '1']);
    const waited = (connects[1]?.at ?? 0) - (connects[0]?.at ?? 0);
    expect(waited).toBeGreaterThanOrEqual(35);
    expect(waited).toBeLessThan(5_000);
  });

  it('backs off from the retry hint while the server stays away, and resumes when it is back', async () => {
    const hintMs = 100;
    const refusals = 3;
    const connects: { lastEventId: string | null; at: number }[] = [];
    const connect = async (lastEventId: string | null) => {
      connects.push({ lastEventId, at: performance.now() });
      if (connects.length === 1)
        return new Response(body(`id: 1\nevent: a\ndata: {}\n\nretry: ${hintMs}\n\n`));
      // The server is restarting: connections are refused, as fetch reports it.
      if (connects.length <= 1 + refusals)
        throw new VerdictError({ status: 0, code: 'CONNECTION_ERROR', message: 'refused' });
      return new Response(body('id: 2\nevent: last\ndata: {}\n\n'));
    };
    const events = [];
    for await (const message of reconnectingSse(connect, (m) => m.event === 'last')) {
      events.push(message.event);
    }
    expect(events).toEqual(['a', 'last']);
    expect(connects.map((c) => c.lastEventId)).toEqual([null, ...Array(refusals + 1).fill('1')]);
    const waits = connects.slice(1).map((c, i) => c.at - (connects[i]?.at ?? 0));
    // The hint first, then each wait at least half of the hint doubled once more (the jitter's floor).
    expect(waits[0]).toBeGreaterThanOrEqual(hintMs - 5);
    for (let attempt = 1; attempt < waits.length; attempt++) {
      expect(waits[attempt], JSON.stringify(waits)).toBeGreaterThanOrEqual(hintMs * 2 ** (attempt - 1) * 0.9);
    }
  });
});
