import { Agent, type ClientRequest, request } from 'node:http';

/**
 * Many raw GET /api/notifications/stream clients (node:http, one socket each), each with its own
 * credentials, for bench/suites/collaboration.ts. Each client parses its messages as they arrive (a
 * notification stream carries few) and hands every `notification` to `onNotification` with the receipt
 * time (performance.now() of this process).
 */

export type NotificationReceipt = { stream: number; data: Record<string, unknown>; receivedAt: number };

export type NotificationFleet = {
  /** Streams whose `event: connected` arrived. */
  connected: number;
  /** Wall ms from the first request to the last `connected`. */
  connectMs: number;
  failures: string[];
  /** Streams that ended or failed after they connected (the server should keep them all open). */
  dropped: () => number;
  /** Pings and other messages that were neither `connected` nor `notification`. */
  otherMessages: () => number;
  close: () => void;
};

type Client = { req: ClientRequest | null; connected: boolean; ended: boolean; error: string | null };

/**
 * Opens one stream per entry of `headers` on `url`, at most `openConcurrency` handshakes at a time, and
 * resolves once every one has sent `connected` (or failed, or `timeoutMs` passed for it).
 */
export async function openNotificationFleet(
  url: string,
  headers: Record<string, string>[],
  onNotification: (receipt: NotificationReceipt) => void,
  options: { openConcurrency?: number; timeoutMs?: number } = {},
): Promise<NotificationFleet> {
  const count = headers.length;
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
  let others = 0;
  const started = performance.now();

  const openOne = (stream: number) =>
    new Promise<Client>((resolveOpen) => {
      const client: Client = { req: null, connected: false, ended: false, error: null };
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolveOpen(client);
      };
      const fail = (message: string) => {
        client.error ??= message;
        settle();
      };
      const timer = setTimeout(() => {
        fail(`no connected event within ${options.timeoutMs ?? 30_000} ms`);
        client.req?.destroy();
      }, options.timeoutMs ?? 30_000);
      const req = request(
        url,
        { agent, headers: { accept: 'text/event-stream', ...headers[stream] } },
        (res) => {
          res.setEncoding('utf8');
          if (res.statusCode !== 200) {
            let body = '';
            res.on('data', (text: string) => {
              body += text;
            });
            res.on('end', () => fail(`HTTP ${res.statusCode}: ${body.slice(0, 200)}`));
            return;
          }
          let buffer = '';
          res.on('data', (text: string) => {
            const receivedAt = performance.now();
            buffer += text;
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              let type = 'message';
              let data = '';
              for (const line of block.split('\n')) {
                if (line.startsWith('event:')) type = line.slice(6).trim();
                else if (line.startsWith('data:')) data += line.slice(5).trim();
              }
              if (type === 'connected') {
                client.connected = true;
                settle();
              } else if (type === 'notification') {
                onNotification({ stream, data: JSON.parse(data) as Record<string, unknown>, receivedAt });
              } else if (data !== '' || type !== 'message') {
                others++;
              }
            }
          });
          res.on('end', () => {
            client.ended = true;
            fail('the stream ended');
          });
          res.on('error', (err) => fail(err.message));
        },
      );
      req.on('error', (err) => fail(err.message));
      req.end();
      client.req = req;
    });

  let next = 0;
  const worker = async () => {
    while (next < count) {
      const stream = next++;
      const client = await openOne(stream);
      clients[stream] = client;
      if (client.error) failures.push(client.error);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.openConcurrency ?? 50, count) }, worker));
  const connectMs = performance.now() - started;
  return {
    connected: clients.filter((c) => c.connected && !c.error).length,
    connectMs,
    failures,
    dropped: () => clients.filter((c) => c.connected && (c.ended || c.error)).length,
    otherMessages: () => others,
    close: () => {
      for (const c of clients) c.req?.destroy();
      agent.destroy();
    },
  };
}
