import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { docsContentSecurityPolicy } from './security.ts';

const require = createRequire(import.meta.url);

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Verdict API reference</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <redoc spec-url="/openapi.json"></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>`;

/** The API reference, served entirely from this process: the page and Redoc's bundle, no CDN. */
export function registerDocs(app: FastifyInstance) {
  let bundle: Promise<Buffer> | undefined;
  app.get('/docs', { config: { contentSecurityPolicy: docsContentSecurityPolicy } }, (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  );
  app.get('/docs/redoc.standalone.js', (_req, reply) => {
    bundle ??= readFile(require.resolve('redoc/bundles/redoc.standalone.js'));
    return bundle.then((js) =>
      reply
        .type('application/javascript; charset=utf-8')
        .header('Cache-Control', 'public, max-age=86400')
        .send(js),
    );
  });
}
