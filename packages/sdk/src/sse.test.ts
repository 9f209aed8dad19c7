import { describe, expect, it } from 'vitest';
import { parseSse } from './sse.ts';

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
});
