import { Agent, type ClientRequest, request } from 'node:http';

/**
 * A fleet of raw SSE clients (node:http, one keep-alive socket each) on one stream URL, for fan-out
 * measurements. Each client notes the receipt time of every chunk (epoch ms, performance.timeOrigin +
 * now, comparable with other processes on the machine) and keeps the chunk; the messages are parsed only
 * once the stream ended, so the hot path is a timestamp and an array push.
 */

/** `bytes`: the message as it came on the wire (UTF-8), its closing blank line included. */
export type ReceivedEvent = { id: number; type: string; receivedAt: number; bytes: number };

export type ClientOutcome = {
  status: number;
  events: ReceivedEvent[];
  /** The server ended the response (after debate.completed). */
  ended: boolean;
  error: string | null;
};

export type SseFleet = {
  /** Clients that got a 200 text/event-stream response. */
  connected: number;
  /** Wall ms from the first request to the last client's response headers. */
  connectMs: number;
  failures: string[];
  /** Connected clients whose stream is still open: not ended by the server, no error. */
  stillOpen: () => number;
  /** Resolves once every connected client's stream ended or failed, or after `timeoutMs` (then aborts). */
  finished: (timeoutMs: number) => Promise<ClientOutcome[]>;
  close: () => void;
};

const now = () => performance.timeOrigin + performance.now();

type Client = {
  req: ClientRequest | null;
  status: number;
  chunks: { at: number; text: string }[];
  ended: boolean;
  error: string | null;
  settled: Promise<void>;
};

/**
 * Opens `count` streams on `url`, at most `openConcurrency` handshakes at a time, and resolves once every
 * one has its response headers (or failed).
 */
export async function openSseFleet(
  url: string,
  headers: Record<string, string>,
  count: number,
  openConcurrency = 100,
): Promise<SseFleet> {
  // TCP keep-alive probes a minute apart, not Node's default second: ten thousand sockets probing every second
  // overflowed loopback's backlog (1,000 packets), and sockets whose probes kept being dropped ended with
  // ETIMEDOUT, a client-side loss the server had no part in.
  const agent = new Agent({
    keepAlive: true,
    keepAliveMsecs: 60_000,
    maxSockets: count + 10,
    maxTotalSockets: count + 10,
  });
  const clients: Client[] = [];
  const failures: string[] = [];
  const started = now();

  const openOne = () =>
    new Promise<Client>((resolveOpen) => {
      let settle: () => void = () => {};
      const client: Client = {
        req: null,
        status: 0,
        chunks: [],
        ended: false,
        error: null,
        settled: new Promise<void>((resolve) => {
          settle = resolve;
        }),
      };
      const fail = (message: string) => {
        if (!client.error) client.error = message;
        settle();
        resolveOpen(client);
      };
      const req = request(url, { agent, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        client.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        if (client.status !== 200) {
          let body = '';
          res.on('data', (text: string) => {
            body += text;
          });
          res.on('end', () => fail(`HTTP ${client.status}: ${body.slice(0, 200)}`));
          return;
        }
        res.on('data', (text: string) => {
          client.chunks.push({ at: now(), text });
        });
        res.on('end', () => {
          client.ended = true;
          settle();
        });
        res.on('error', (err) => fail(err.message));
        resolveOpen(client);
      });
      req.on('error', (err) => fail(err.message));
      req.end();
      client.req = req;
    });

  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const client = await openOne();
      clients.push(client);
      if (client.error) failures.push(client.error);
    }
  };
  await Promise.all(Array.from({ length: Math.min(openConcurrency, count) }, worker));
  const connectMs = now() - started;
  const live = clients.filter((c) => c.status === 200 && !c.error);

  const close = () => {
    for (const c of clients) c.req?.destroy();
    agent.destroy();
  };
  return {
    connected: live.length,
    connectMs,
    failures,
    close,
    stillOpen: () => live.reduce((n, c) => n + (c.ended || c.error ? 0 : 1), 0),
    finished: async (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.all(live.map((c) => c.settled)), timedOut]);
      clearTimeout(timer);
      const outcomes = live.map((c) => ({
        status: c.status,
        events: parseChunks(c.chunks),
        ended: c.ended,
        error: c.error ?? (c.ended ? null : 'stream still open at the timeout'),
      }));
      close();
      return outcomes;
    },
  };
}

/**
 * SSE messages (`id:`, `event:`, `data:` lines ending with a blank line; `:` comments ignored), each
 * stamped with the receipt time of the chunk that completed it.
 */
export function parseChunks(chunks: { at: number; text: string }[]): ReceivedEvent[] {
  const events: ReceivedEvent[] = [];
  let buffer = '';
  for (const chunk of chunks) {
    buffer += chunk.text;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id = Number.NaN;
      let type = 'message';
      let hasData = false;
      for (const line of block.split('\n')) {
        if (line.startsWith('id:')) id = Number(line.slice(3).trim());
        else if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) hasData = true;
      }
      if (hasData) events.push({ id, type, receivedAt: chunk.at, bytes: Buffer.byteLength(block) + 2 });
    }
  }
  return events;
}
