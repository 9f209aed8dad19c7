import { createServer, type Server } from 'node:http';
import { type Registry, scraperHoldsToken } from '@verdict/core';

/**
 * GET /metrics of an engine process, on a port of its own (the process serves nothing else). With a token,
 * a scraper must send it as a bearer; everything else is 404.
 */
export async function serveMetrics(
  registry: Registry,
  listen: { host: string; port: number; token: string | null },
): Promise<Server> {
  const { token } = listen;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Only GET /metrics is served here' } }));
      return;
    }
    if (token !== null && !scraperHoldsToken(req.headers.authorization, token)) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { code: 'UNAUTHORIZED', message: 'A bearer token for the metrics is required' },
        }),
      );
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(text);
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'Metrics unavailable' } }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return server;
}
