import { createServer, type Server, type ServerResponse } from 'node:http';
import { type Readiness, type Registry, scraperHoldsToken } from '@verdict/core';

export type OperatorEndpoints = {
  registry: Registry;
  /** The spec's /health: the process and its database answer. */
  checkDatabase: () => Promise<void>;
  /** /ready: database, bus, migrations, and whether the node is draining. */
  checkReadiness: () => Promise<Readiness>;
};

/**
 * What an operator asks of an engine process, on a port of its own (METRICS_PORT; the process serves
 * nothing else): GET /metrics (with a token, a scraper must send it as a bearer), GET /health (liveness)
 * and GET /ready (readiness, 503 while the node drains after SIGTERM). Everything else is 404.
 */
export async function serveOperatorEndpoints(
  endpoints: OperatorEndpoints,
  listen: { host: string; port: number; token: string | null },
): Promise<Server> {
  const { token } = listen;
  const routes: Record<string, (res: ServerResponse, authorization: string | undefined) => Promise<void>> = {
    '/metrics': async (res, authorization) => {
      if (token !== null && !scraperHoldsToken(authorization, token)) {
        return sendError(res, 401, 'UNAUTHORIZED', 'A bearer token for the metrics is required');
      }
      const text = await endpoints.registry.metrics();
      res.writeHead(200, { 'content-type': endpoints.registry.contentType });
      res.end(text);
    },
    '/health': async (res) => {
      try {
        await endpoints.checkDatabase();
      } catch {
        return sendError(res, 503, 'SERVICE_UNAVAILABLE', 'Database unavailable');
      }
      sendJson(res, 200, { status: 'ok', checks: { database: 'ok' } });
    },
    '/ready': async (res) => {
      const { ready, checks, message } = await endpoints.checkReadiness();
      if (ready) return sendJson(res, 200, { status: 'ready', checks });
      sendError(res, 503, 'SERVICE_UNAVAILABLE', message, { checks });
    },
  };
  const server = createServer((req, res) => {
    const route = routes[(req.url ?? '').split('?')[0] ?? ''];
    if (req.method !== 'GET' || !route) {
      return sendError(res, 404, 'NOT_FOUND', 'Only GET /metrics, /health and /ready are served here');
    }
    route(res, req.headers.authorization).catch(() => {
      if (!res.headersSent) sendError(res, 500, 'INTERNAL_ERROR', 'Internal server error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return server;
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The service's error envelope, as the API answers it. */
function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  sendJson(res, status, { error: { ...extra, code, message } });
}
