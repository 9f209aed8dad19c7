import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCIDENTAL_HEADERS } from './support/raw-http.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVERS = ['uws', 'node'] as const;
type Server = (typeof SERVERS)[number];

type Answer = { status: string; headers: [string, string][]; body: string };

/** One request on a connection of its own, and the answer exactly as it came: every header line, in order. */
async function request(port: number, method: string, path: string): Promise<Answer> {
  const socket = connect(port, '127.0.0.1');
  socket.end(`${method} ${path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`);
  let raw = '';
  for await (const chunk of socket) raw += chunk;
  const end = raw.indexOf('\r\n\r\n');
  const [status = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers = lines
    .map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    })
    .filter(([name]) => !INCIDENTAL_HEADERS.has(name));
  return { status, headers, body: raw.slice(end + 4) };
}

async function start(server: Server): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['tests/support/bridge-headers-server.ts', server], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', STREAMS: server },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the ${server} server did not start:\n${output}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening (\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the ${server} server exited (${code}):\n${output}`)));
  });
  return { child, port };
}

/**
 * The uWebSockets.js bridge writes helmet's headers as one shared block and the whole head in one call;
 * whatever route code does to them (override through Fastify or the raw response, remove, read, lists),
 * the answer must be the one Node's http server gives, header line for header line.
 */
describe('response headers on uWebSockets.js and on Node http', () => {
  const ports = {} as Record<Server, number>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    const started = await Promise.all(SERVERS.map(start));
    SERVERS.forEach((server, i) => {
      const { child, port } = started[i] as { child: ChildProcess; port: number };
      children.push(child);
      ports[server] = port;
    });
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  const both = async (method: string, path: string) => {
    const [uws, node] = await Promise.all(SERVERS.map((server) => request(ports[server], method, path)));
    expect(uws, `${method} ${path}`).toEqual(node);
    return node as Answer;
  };
  const valuesOf = (answer: Answer, name: string) =>
    answer.headers.filter(([each]) => each === name).map(([, value]) => value);

  it('sends the same head for plain answers, a route with its own policy, HEAD and 204', async () => {
    const plain = await both('GET', '/plain');
    expect(plain.status).toBe('HTTP/1.1 200 OK');
    expect(valuesOf(plain, 'content-security-policy')).toEqual(["default-src 'none'"]);
    expect(valuesOf(plain, 'x-content-type-options')).toEqual(['nosniff']);
    const own = await both('GET', '/own-policy');
    expect(valuesOf(own, 'content-security-policy')).toEqual([expect.stringContaining("img-src 'self'")]);
    expect((await both('HEAD', '/plain')).body).toBe('');
    expect((await both('GET', '/empty')).status).toBe('HTTP/1.1 204 No Content');
  });

  it('lets route code override, remove and list headers, each sent once', async () => {
    expect(valuesOf(await both('GET', '/override-by-reply'), 'x-frame-options')).toEqual(['DENY']);
    expect(valuesOf(await both('GET', '/override-raw'), 'referrer-policy')).toEqual(['same-origin']);
    expect(valuesOf(await both('GET', '/remove'), 'x-content-type-options')).toEqual([]);
    expect(valuesOf(await both('GET', '/list'), 'link')).toEqual(['</a>; rel="next"', '</b>; rel="last"']);
  });

  it('reads the headers set so far as Node does', async () => {
    const read = JSON.parse((await both('GET', '/read')).body) as {
      frame: string;
      hasNosniff: boolean;
      names: string[];
      headers: Record<string, string>;
    };
    expect(read.frame).toBe('SAMEORIGIN');
    expect(read.hasNosniff).toBe(true);
    expect(read.names).toContain('x-own');
    expect(read.names).toContain('content-security-policy');
    expect(read.headers['x-own']).toBe('mine');
  });
});
