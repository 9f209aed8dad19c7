import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionError } from './extract-text.ts';
import { createSandboxPool, SandboxesBusyError } from './extraction-sandbox.ts';
import { fetchPage, PageFetchError, type PageFetchOptions, pageReadFailure } from './page-fetch.ts';

/** Served on 127.0.0.2, the one loopback address these tests allow; 127.0.0.1 stays refused. */
const HOST = '127.0.0.2';
/** 200,000 unclosed divs: Readability works on them for far longer than any deadline here. */
const NESTED = `<html><body>${'<div><span>deep</span>'.repeat(200_000)}</body></html>`;
const ARTICLE = `<html><head><title>Rent</title></head><body><article><h1>Rent</h1><p>${'The rent stays flat. '.repeat(20)}</p></article></body></html>`;

describe('reading a fetched page', () => {
  let pages: Server;
  let base: string;
  const options = (extra: Partial<PageFetchOptions> = {}): PageFetchOptions => ({
    policy: { allowPrivate: false, allowedRanges: [`${HOST}/32`] },
    ...extra,
  });
  const failureOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PageFetchError);
    return { code: (error as PageFetchError).code, message: (error as PageFetchError).message };
  };

  beforeAll(async () => {
    pages = createServer((req, res) => {
      if (req.url === '/nested') res.writeHead(200, { 'content-type': 'text/html' }).end(NESTED);
      else if (req.url === '/to-hanging-name')
        res.writeHead(302, { location: 'http://dns-never-answers.example/page' }).end();
      else if (req.url === '/broken.pdf')
        res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 and then nothing');
      else res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
    });
    await new Promise<void>((resolve) => pages.listen(0, HOST, resolve));
    base = `http://${HOST}:${(pages.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    pages?.close();
  });

  it('reports a page whose reading outlasts the sandbox deadline as unreadable with the reason, not as a fetch timeout', async () => {
    // The download is done well within its 300 ms; the reading is stopped at 600 ms, after the download's
    // deadline has passed.
    const sandboxes = createSandboxPool(undefined, { timeoutMs: 600, maxMemoryMb: 512 });
    expect(await failureOf(fetchPage(`${base}/nested`, options({ timeoutMs: 300, sandboxes })))).toEqual({
      code: 'unreadable',
      message: 'Reading the file took longer than 0.6 s',
    });
  });

  it('gives up on a host name whose lookup never ends at the deadline, as a timeout', async () => {
    const started = performance.now();
    const hanging = options({
      timeoutMs: 300,
      policy: { allowPrivate: false, resolve: () => new Promise<string[]>(() => {}) },
    });
    const outcome = await Promise.race([
      failureOf(fetchPage('http://dns-never-answers.example/page', hanging)),
      new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 3 s'), 3000)),
    ]);
    expect(outcome).toEqual({ code: 'timeout', message: 'no complete answer within 300 ms' });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('keeps one deadline across redirects: a redirect to a name that never resolves ends at it', async () => {
    const started = performance.now();
    const hanging = options({
      timeoutMs: 400,
      policy: {
        allowPrivate: false,
        allowedRanges: [`${HOST}/32`],
        resolve: () => new Promise<string[]>(() => {}),
      },
    });
    const outcome = await Promise.race([
      failureOf(fetchPage(`${base}/to-hanging-name`, hanging)),
      new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 3 s'), 3000)),
    ]);
    expect(outcome).toEqual({ code: 'timeout', message: 'no complete answer within 400 ms' });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('reports a PDF page its parser cannot read as unreadable, with the parser’s reason', async () => {
    const failure = await failureOf(fetchPage(`${base}/broken.pdf`, options()));
    expect(failure.code).toBe('unreadable');
    expect(failure.message).toMatch(/^The PDF could not be read: /);
  });

  it('refuses a page at once when every sandbox of the pool is taken and its line is full', async () => {
    const sandboxes = createSandboxPool(
      { atOnce: 1, queued: { stored: 0, page: 0 } },
      { timeoutMs: 1500, maxMemoryMb: 512 },
    );
    // A stored file holds the only sandbox until its deadline.
    const holding = sandboxes.extract('stored', 'text/html', new TextEncoder().encode(NESTED));
    await expect(fetchPage(`${base}/article`, options({ sandboxes }))).rejects.toThrow(SandboxesBusyError);
    await expect(holding).rejects.toThrow(ExtractionError);
    // Freed, the pool reads the same page.
    expect((await fetchPage(`${base}/article`, options({ sandboxes }))).text).toContain(
      'The rent stays flat.',
    );
  });

  it('passes a sandbox that failed on its own through untouched (a 500 that shows nothing), and makes a page’s own failure a 400 reason', () => {
    const crash = new Error('the extraction worker exited (1) without an answer');
    expect(pageReadFailure(crash)).toBe(crash);
    const busy = new SandboxesBusyError('busy');
    expect(pageReadFailure(busy)).toBe(busy);
    const own = pageReadFailure(new ExtractionError('The text is not UTF-8: bad byte'));
    expect(own).toBeInstanceOf(PageFetchError);
    expect(own).toMatchObject({ code: 'unreadable', message: 'The text is not UTF-8: bad byte' });
  });
});
