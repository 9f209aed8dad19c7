import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Attachment } from '@verdict/contracts';
import { insertStoredDebate, minimalPdf } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

/** The pages' server listens on 127.0.0.2, which the guard allows here; 127.0.0.1 stays refused. */
const PAGES_HOST = '127.0.0.2';
/** A host name whose lookup never ends (the resolver injected below). */
const NEVER_RESOLVES = 'dns-never-answers.example';
const ARTICLE = `<!doctype html><html><head><title>Hiring in 2027</title><script>window.evil = 1</script></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Hiring in 2027</h1>
<p>The engineering budget for 2027 allows exactly two new hires, according to the finance team's plan.</p>
<p>Both roles should be filled before the second quarter so the platform migration can start on time.</p>
<p>Delaying the hires would push the migration past the end of the year, the report concludes.</p>
</article><footer>Copyright</footer></body></html>`;

describe('POST /api/debates/fetch-url', () => {
  let h: Harness;
  let owner: TestUser;
  let pages: Server;
  let base: string;
  let debateId: string;

  beforeAll(async () => {
    pages = createServer((req, res) => {
      const path = req.url ?? '/';
      const hops = /^\/r\/(\d+)$/.exec(path);
      if (hops) {
        const left = Number(hops[1]);
        res.writeHead(302, { location: left > 0 ? `/r/${left - 1}` : '/article' }).end();
      } else if (path === '/article')
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
      else if (path === '/doc.pdf')
        res.writeHead(200, { 'content-type': 'application/pdf' }).end(minimalPdf('A PDF about hiring'));
      else if (path === '/to-private') res.writeHead(302, { location: 'http://10.0.0.7/article' }).end();
      else if (path === '/to-localhost') {
        const { port } = pages.address() as AddressInfo;
        res.writeHead(307, { location: `http://localhost:${port}/article` }).end();
      } else if (path === '/to-loopback') {
        const { port } = pages.address() as AddressInfo;
        res.writeHead(301, { location: `http://127.0.0.1:${port}/article` }).end();
      } else if (path === '/to-metadata')
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      else if (path === '/big') {
        // Chunked, no Content-Length: only counting the bytes read can stop it.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(1024 * 1024, 0x61);
        for (let i = 0; i < 6; i++) res.write(chunk);
        res.end();
      } else if (path === '/slow')
        res.writeHead(200, { 'content-type': 'text/plain' }).write('still '); // never ends
      else if (path === '/image')
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50]));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => pages.listen(0, PAGES_HOST, resolve));
    base = `http://${PAGES_HOST}:${(pages.address() as AddressInfo).port}`;
    // Webhooks' development settings off, as in production: pages are fetched over http as over https, and
    // only the pages' own address is allowed on top of the public ones.
    h = await startServer({
      env: { WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE: 'false' },
      coreOptions: {
        pageFetch: {
          timeoutMs: 1500,
          policy: {
            allowPrivate: false,
            allowedRanges: [`${PAGES_HOST}/32`],
            // A name server that never answers for NEVER_RESOLVES; every other name as the system resolves it.
            resolve: (host) =>
              host === NEVER_RESOLVES
                ? new Promise<string[]>(() => {})
                : lookup(host, { all: true }).then((all) => all.map((a) => a.address)),
          },
        },
      },
    });
    owner = await registerUser(h);
    await h.core.accounts.setPlan(owner.session.user.id, 'byok_pro');
    debateId = await insertStoredDebate(h.core, { ownerId: owner.session.user.id, question: 'Hire?' });
  }, 60_000);
  afterAll(async () => {
    pages?.closeAllConnections();
    pages?.close();
    await h?.close();
  });

  const fetchUrl = (url: string, user = owner, debate = debateId) =>
    h.request<Attachment>('POST', '/api/debates/fetch-url', {
      cookie: user.cookie,
      body: { debateId: debate, url },
    });
  const storedText = async (id: string) =>
    ((await h.core.db.execute('select text from attachments where id = ?', [id])) as { text: string }[])[0]
      ?.text;
  const codeOf = (res: Awaited<ReturnType<typeof fetchUrl>>) =>
    expectError(res, 'VALIDATION_ERROR').details?.[0]?.code;

  it('stores the readable text of a page as a ready URL attachment whose download is {url}', async () => {
    const res = await fetchUrl(`${base}/article`);
    expect(res.status, res.text).toBe(201);
    const attachment = Attachment.parse(res.json);
    expect(attachment).toMatchObject({
      kind: 'url',
      status: 'ready',
      url: `${base}/article`,
      filename: PAGES_HOST,
    });
    const text = await storedText(attachment.id);
    expect(text).toContain('allows exactly two new hires');
    expect(text).not.toContain('window.evil');
    expect(text).not.toContain('About');
    const download = await h.request(
      'GET',
      `/api/debates/${debateId}/attachments/${attachment.id}/download`,
      {
        cookie: owner.cookie,
      },
    );
    expect(download.json).toEqual({ url: `${base}/article` });
  });

  it('reads a PDF page through the PDF path, and follows up to five redirects', async () => {
    const pdf = await fetchUrl(`${base}/doc.pdf`);
    expect(pdf.status, pdf.text).toBe(201);
    expect(await storedText(pdf.json.id)).toContain('A PDF about hiring');
    const debate = await insertStoredDebate(h.core, { ownerId: owner.session.user.id, question: 'Hire?' });
    const five = await fetchUrl(`${base}/r/4`, owner, debate);
    expect(five.status, five.text).toBe(201);
    expect(five.json.url).toBe(`${base}/r/4`);
  });

  it('fetches an http:// page with WEBHOOK_ALLOW_HTTP off, and refuses an http:// redirect to a private address', async () => {
    const debate = await insertStoredDebate(h.core, { ownerId: owner.session.user.id, question: 'Hire?' });
    const page = await fetchUrl(`${base}/article`, owner, debate);
    expect(page.status, page.text).toBe(201);
    expect(await storedText(page.json.id)).toContain('allows exactly two new hires');
    const refused = await fetchUrl(`${base}/to-private`);
    expect(codeOf(refused)).toBe('refused');
    expect(refused.text).toContain('refused a redirect: 10.0.0.7 is a private address');
    expect(codeOf(await fetchUrl(`${base}/to-localhost`))).toBe('refused');
  });

  it('refuses a sixth redirect', async () => {
    expect(codeOf(await fetchUrl(`${base}/r/5`))).toBe('too_many_redirects');
  });

  it('refuses a redirect to a loopback or metadata address, and such addresses given directly', async () => {
    expect(codeOf(await fetchUrl(`${base}/to-loopback`))).toBe('refused');
    expect(codeOf(await fetchUrl(`${base}/to-metadata`))).toBe('refused');
    expect(codeOf(await fetchUrl('http://127.0.0.1/article'))).toBe('refused');
    expect(codeOf(await fetchUrl('http://[::ffff:169.254.169.254]/'))).toBe('refused');
  });

  it('refuses a page over 5 MB, one that does not finish in time, and types it does not read', async () => {
    expect(codeOf(await fetchUrl(`${base}/big`))).toBe('too_big');
    const started = Date.now();
    expect(codeOf(await fetchUrl(`${base}/slow`))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(codeOf(await fetchUrl(`${base}/image`))).toBe('unsupported');
    expect(codeOf(await fetchUrl(`${base}/missing`))).toBe('unreachable');
  });

  it('answers within the deadline, with a 400 timeout, when the host name’s lookup never ends', async () => {
    const started = Date.now();
    const answer = await Promise.race([
      fetchUrl(`http://${NEVER_RESOLVES}/article`),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no answer within 6 s (the deadline is 1.5 s)')), 6000),
      ),
    ]);
    const error = expectError(answer, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ path: 'url', code: 'timeout', message: expect.any(String) }]);
    expect(Date.now() - started).toBeLessThan(3000);
    const stored = await h.core.db.execute('select 1 from attachments where url = ?', [
      `http://${NEVER_RESOLVES}/article`,
    ]);
    expect(stored).toHaveLength(0);
  });

  it('answers 404 for another user’s debate and 402 without BYOK Pro, fetching nothing', async () => {
    const stranger = await registerUser(h);
    expectError(await fetchUrl(`${base}/article`, stranger), 'NOT_FOUND');
    const own = await insertStoredDebate(h.core, { ownerId: stranger.session.user.id, question: 'Q?' });
    expectError(await fetchUrl(`${base}/article`, stranger, own), 'BYOK_REQUIRED', {
      extras: ['requiredPlan', 'upgradeUrl'],
    });
  });
});
