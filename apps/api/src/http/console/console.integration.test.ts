import { gunzipSync } from 'node:zlib';
import type { ShareLink } from '@verdict/contracts';
import { insertStoredDebate } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerUser, startServer, type TestUser } from '../../testing/http-harness.ts';

const HTML = { accept: 'text/html,application/xhtml+xml' };

describe('the web console, served by the API process', () => {
  let h: Harness;
  let alice: TestUser;

  const shareOf = async (question: string, verdict: Record<string, unknown> | null) => {
    const id = await insertStoredDebate(h.core, { ownerId: alice.session.user.id, question });
    if (verdict)
      await h.core.db.execute('update debates set verdict = ? where id = ?', [JSON.stringify(verdict), id]);
    const link = await h.request<ShareLink>('POST', `/api/share/${id}`, { cookie: alice.cookie });
    expect(link.status, link.text).toBe(200);
    return { id, token: link.json.token };
  };
  const scriptsOf = (html: string) =>
    [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1] as string);

  beforeAll(async () => {
    h = await startServer();
    alice = await registerUser(h, { name: 'Alice Owner' });
  });
  afterAll(() => h.close());

  it('answers GET / with the console to a browser and with the JSON pointers to everyone else', async () => {
    const page = await h.request('GET', '/', { headers: HTML });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('<div id="root"></div>');
    const json = await h.request<{ docs: string }>('GET', '/');
    expect(json.json).toMatchObject({ service: 'verdict', docs: '/docs', openapi: '/openapi.json' });
  });

  it('serves every page under a CSP that allows only this origin and no inline script or style', async () => {
    for (const path of ['/', '/sign-in', '/keys', '/debates/x', '/debates/x/chart', '/share/anything']) {
      const page = await h.request('GET', path, { headers: HTML });
      expect(page.status, path).toBe(200);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
      expect(page.text).not.toContain('<style');
      expect(page.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves the hashed assets gzipped and cached for good, and answers unknown assets in the error envelope', async () => {
    const page = await h.request('GET', '/', { headers: HTML });
    const [entry] = scriptsOf(page.text);
    expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    const response = await fetch(`${h.baseUrl}${entry}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/javascript');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // fetch decodes gzip itself: the body is JavaScript either way, and the header says it was compressed.
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect((await response.text()).length).toBeGreaterThan(1000);
    const missing = await h.request<{ error: { code: string } }>('GET', '/assets/nothing-here.js');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('NOT_FOUND');
  });

  it("gives a share page the debate's Open Graph preview, escaped, and a generic one where sign-in is required", async () => {
    const question = 'Should we ship "<b>bold</b>" & <script>alert(1)</script> pricing?';
    const { id, token } = await shareOf(question, { oneLiner: 'Yes — but test it on 5% first.' });
    const page = await h.request('GET', `/share/${token}`, { headers: HTML });
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      '<meta property="og:title" content="Should we ship &quot;&lt;b&gt;bold&lt;/b&gt;&quot; &amp; &lt;script&gt;alert(1)&lt;/script&gt; pricing?" />',
    );
    expect(page.text).toContain(
      '<meta property="og:description" content="Yes — but test it on 5% first." />',
    );
    expect(page.text).toContain(`<meta property="og:url" content="${h.baseUrl}/share/${token}" />`);
    expect(page.text).not.toContain('<script>alert');

    const settings = await h.request('PATCH', `/api/share/${id}`, {
      cookie: alice.cookie,
      body: { settings: { requireSignIn: true } },
    });
    expect(settings.status).toBe(200);
    const guarded = await h.request('GET', `/share/${token}`, { headers: HTML });
    expect(guarded.text).toContain('<meta property="og:title" content="A shared Verdict debate" />');
    expect(guarded.text).not.toContain('pricing');

    // A preview is not a view: the public read still counts from zero.
    const views = await h.core.db.execute<{ view_count: number }>(
      'select view_count from debates where id = ?',
      [id],
    );
    expect(views[0]?.view_count).toBe(0);
  });

  it('serves the page without a preview for a token that matches no link', async () => {
    const page = await h.request('GET', '/share/no-such-token', { headers: HTML });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('og:title');
    expect(page.text).toContain('<div id="root"></div>');
  });

  it('keeps the gzipped asset identical to the plain one', async () => {
    const page = await h.request('GET', '/', { headers: HTML });
    const [entry] = scriptsOf(page.text);
    const plain = await fetch(`${h.baseUrl}${entry}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const raw = Buffer.from(await plain.arrayBuffer());
    const { request } = await import('node:http');
    const zipped = await new Promise<Buffer>((resolve, reject) => {
      request(`${h.baseUrl}${entry}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      })
        .on('error', reject)
        .end();
    });
    expect(zipped.length).toBeLessThan(raw.length / 2);
    expect(gunzipSync(zipped).equals(raw)).toBe(true);
  });
});
