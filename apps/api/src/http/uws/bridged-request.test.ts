import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { joinHeaders } from './bridged-request.ts';

/** The headers Node's own http server gives a handler for a request carrying `raw`. */
async function nodeHeaders(raw: string[]): Promise<IncomingHttpHeaders> {
  const server = createServer((req, res) => {
    res.end(JSON.stringify(req.headers));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const socket = connect(port, '127.0.0.1');
  const lines = ['GET / HTTP/1.1', 'host: test', 'connection: close'];
  for (let i = 0; i < raw.length; i += 2) lines.push(`${raw[i]}: ${raw[i + 1]}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n`);
  let answer = '';
  for await (const chunk of socket) answer += chunk;
  server.close();
  const {
    host: _host,
    connection: _connection,
    ...headers
  } = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  return headers;
}

describe('headers of a request read by uWebSockets.js', () => {
  it('are joined as Node joins them: first-only, cookie with "; ", set-cookie as a list, others with ", "', async () => {
    const raw = [
      ['authorization', 'Bearer first'],
      ['authorization', 'Bearer second'],
      ['cookie', 'a=1'],
      ['cookie', 'b=2'],
      ['set-cookie', 'x=1'],
      ['set-cookie', 'y=2'],
      ['accept', 'text/html'],
      ['accept', 'application/json'],
      ['content-type', 'application/json'],
      ['content-type', 'text/plain'],
      ['x-forwarded-for', '10.0.0.1'],
      ['x-forwarded-for', '10.0.0.2'],
    ].flat();
    const joined = joinHeaders(raw);
    expect(joined).toEqual(await nodeHeaders(raw));
    expect(joined.authorization).toBe('Bearer first');
    expect(joined.cookie).toBe('a=1; b=2');
  });
});
