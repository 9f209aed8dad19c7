/**
 * A Fastify app on one of the API's two HTTP servers (argv[2]: `uws` or `node`), with the API's security
 * headers and routes that set, override, remove and read headers the ways Fastify and route code do. Prints
 * `listening <port>` once it serves. Started by tests/bridge-headers.test.ts, which compares both servers.
 */
import '../../apps/api/src/startup/uws-runtime.ts';
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { registerSecurityHeaders } from '../../apps/api/src/http/security-headers.ts';
import { loadUws } from '../../apps/api/src/http/uws/load-uws.ts';
import { UwsServer } from '../../apps/api/src/http/uws/uws-server.ts';

const server = process.argv[2];
const uws = server === 'uws' ? loadUws().uws : null;
if (server === 'uws' && !uws) throw new Error('uWebSockets.js does not load');

const app = Fastify({
  serverFactory: (handler) =>
    uws ? (new UwsServer(uws, handler, (err) => console.error(err)) as never) : createServer(handler),
});
registerSecurityHeaders(app, {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } },
  hsts: false,
});

app.get('/plain', async () => ({ ok: true }));
app.get(
  '/own-policy',
  { config: { contentSecurityPolicy: { directives: { imgSrc: ["'self'"] } } } },
  async () => ({
    ok: true,
  }),
);
// Fastify's own headers reach the response through writeHead at the end: they override a block's.
app.get('/override-by-reply', async (_request, reply) =>
  reply.header('X-Frame-Options', 'DENY').send({ ok: true }),
);
app.get('/override-raw', async (_request, reply) => {
  reply.raw.setHeader('referrer-policy', 'same-origin');
  return { ok: true };
});
app.get('/remove', async (_request, reply) => {
  reply.raw.removeHeader('X-Content-Type-Options');
  return { ok: true };
});
app.get('/list', async (_request, reply) => {
  reply.raw.setHeader('Link', ['</a>; rel="next"', '</b>; rel="last"']);
  return { ok: true };
});
app.get('/read', async (_request, reply) => {
  const raw = reply.raw;
  raw.setHeader('X-Own', 'mine');
  return {
    frame: raw.getHeader('x-frame-options') ?? null,
    hasNosniff: raw.hasHeader('X-Content-Type-Options'),
    names: raw.getHeaderNames().sort(),
    headers: raw.getHeaders(),
  };
});
app.get('/empty', async (_request, reply) => reply.code(204).send());

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
