import type { Services } from '@verdict/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLinks } from '../../trpc/request-links.ts';
import { POINTERS } from '../entry-points.ts';
import type { ContentSecurityPolicy } from '../security-headers.ts';
import { type ConsoleAsset, consoleDist, loadConsoleBundle } from './assets.ts';
import { type Preview, renderDocument } from './document.ts';

/**
 * The console's own policy: its scripts, styles, images and fonts from this origin only, its calls to this
 * origin only; no inline script or style element, no eval, no frame, no other site. Styles set from script
 * through the CSSOM (React's style prop, the charts) are not inline markup and need no exception.
 */
export const consoleContentSecurityPolicy: ContentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    manifestSrc: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
  },
};

/** The console's pages: each is the same document, whose script draws the page its path names. */
const PAGES = [
  '/sign-in',
  '/outcomes',
  '/scores',
  '/keys',
  '/usage',
  '/workspaces',
  '/audit',
  '/notifications',
  '/debates/:id',
  '/debates/:id/chart',
  '/debates/:id/graph',
];

const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

/**
 * Serves the web console from this process: its pages, its hashed assets (cached for good) and, for a
 * share link, the page with the debate's Open Graph preview for link unfurlers that run no script.
 * `GET /` is the console for a browser and the JSON pointers (entry-points.ts) for everyone else.
 */
export function registerConsole(app: FastifyInstance, core: Services): { served: boolean } {
  const dist = consoleDist();
  if (!dist) {
    app.log.warn(
      'console: apps/console/dist is missing (npm run build --workspace=@verdict/console); not served',
    );
    return { served: false };
  }
  const bundle = loadConsoleBundle(dist);
  const withConsolePolicy = { config: { contentSecurityPolicy: consoleContentSecurityPolicy } };
  const page = (preview: Preview | null) => renderDocument(bundle.indexHtml, preview);
  const plainPage = page(null);
  const sendPage = (reply: FastifyReply, html: string) =>
    reply
      .type('text/html; charset=utf-8')
      // The document names the current hashed assets: always revalidated, so a deploy shows at once.
      .header('Cache-Control', 'no-cache')
      .send(html);

  for (const path of PAGES) app.get(path, withConsolePolicy, (_request, reply) => sendPage(reply, plainPage));
  app.get('/', withConsolePolicy, (request, reply) =>
    wantsHtml(request) ? sendPage(reply, plainPage) : reply.send(POINTERS),
  );

  // The token opens the debate: no log line or span shows it.
  const sharePage = { config: { ...withConsolePolicy.config, secretParameters: ['token'] } };
  app.get<{ Params: { token: string } }>('/share/:token', sharePage, async (request, reply) => {
    const url = `${requestLinks(request, core.config).app}${request.url}`;
    const preview = await sharePreview(core, request.params.token, url);
    // A link nobody can read is still the page (it says so); only its preview is generic.
    return sendPage(reply, page(preview));
  });

  for (const [path, asset] of bundle.assets) {
    app.get(path, withConsolePolicy, (request, reply) => sendAsset(request, reply, asset));
  }
  return { served: true };
}

async function sharePreview(core: Services, token: string, url: string): Promise<Preview | null> {
  const found = await core.sharing.preview(token).catch(() => null);
  if (!found) return null;
  if (found.requireSignIn) {
    // The question is for signed-in readers: an unfurler shows only that a debate is behind the link.
    return { title: 'A shared Verdict debate', description: 'Sign in to read this debate.', url };
  }
  return {
    title: found.question,
    description: found.oneLiner ?? 'A panel of AI agents debated this question on Verdict.',
    url,
  };
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: ConsoleAsset) {
  reply
    .type(asset.mediaType)
    .header('Cache-Control', asset.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
    .header('Vary', 'Accept-Encoding');
  const gzipped = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')) ? asset.gzipped() : null;
  if (gzipped) return reply.header('Content-Encoding', 'gzip').send(gzipped);
  return reply.send(asset.body);
}
