/** The baseline: plain Fastify, one trivial JSON route, no plugins, no logger. Prints {"port"} when ready. */
import Fastify from 'fastify';
import { onStopRequest } from '../lib/spawn-server.ts';

const app = Fastify({ logger: false, forceCloseConnections: true });
app.get('/bare', async () => ({ status: 'ok' }));

onStopRequest(() => app.close());

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no TCP address');
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
