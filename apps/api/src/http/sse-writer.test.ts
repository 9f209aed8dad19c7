import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { SseWriter } from './sse-wire.ts';
import { nodeSseWriter } from './sse-writer.ts';

/** A server whose one stream is handed to the test, and a raw client that reads (or not). */
async function streamTo(reads: boolean, maxBufferedBytes: number) {
  let opened: (writer: SseWriter) => void = () => {};
  const writer = new Promise<SseWriter>((resolve) => {
    opened = resolve;
  });
  const server = createServer((_req, res: ServerResponse) => {
    const sse = nodeSseWriter(res, maxBufferedBytes);
    sse.open();
    opened(sse);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const client = connect(port, '127.0.0.1');
  let received = 0;
  client.on('data', (chunk: Buffer) => {
    received += chunk.length;
  });
  if (!reads) client.pause();
  client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  return {
    writer: await writer,
    received: () => received,
    close: async () => {
      client.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const payload = { text: 'x'.repeat(64 * 1024) };

describe('an SSE stream to a client that stops reading', () => {
  it('is dropped once its buffer passes the bound, instead of growing without end', async () => {
    const stream = await streamTo(false, 256 * 1024);
    let sent = 0;
    // Loopback's socket buffers take a few MiB first; 64 MiB is far past them and the bound.
    while (!stream.writer.closed && sent < 1024) {
      stream.writer.send(sent, 'debate.turn', payload);
      sent += 1;
      if (sent % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(stream.writer.closed).toBe(true);
    expect(sent).toBeLessThan(1024);
    await stream.close();
  });

  it('is kept while the client reads, however much goes through it', async () => {
    const stream = await streamTo(true, 256 * 1024);
    for (let sent = 0; sent < 256; sent++) {
      stream.writer.send(sent, 'debate.turn', payload);
      // A client that keeps up: the next event goes once this one has arrived.
      while (stream.received() < (sent + 1) * payload.text.length) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    expect(stream.writer.closed).toBe(false);
    await stream.close();
  });
});
