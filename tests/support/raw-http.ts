import { connect } from 'node:net';

/**
 * Header lines each HTTP server writes its own way, whatever the route: the time, uWebSockets.js's mark,
 * and how the body and connection are framed. Comparing two servers' answers, these are left out.
 */
export const INCIDENTAL_HEADERS: ReadonlySet<string> = new Set([
  'date',
  'uwebsockets',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/** An answer exactly as it came: the status line, every header line in order (names in lower case), the body. */
export type RawAnswer = { status: string; headers: [name: string, value: string][]; body: string };

/**
 * Writes `head` (a request's head, and any body bytes after it) on a connection of its own and reads the
 * answer: whole once its body has the length it announces, or when the server closes. Written, not ended:
 * Node's http server drops a connection the client half-closed before it answered.
 */
export async function exchange(baseUrl: string, head: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  socket.write(head);
  let raw = '';
  for await (const chunk of socket) {
    raw += chunk;
    const end = raw.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, end));
    if (end >= 0 && length && raw.length >= end + 4 + Number(length[1])) break;
  }
  socket.destroy();
  const end = raw.indexOf('\r\n\r\n');
  const [status = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
  });
  return { status, headers, body: raw.slice(end + 4) };
}
