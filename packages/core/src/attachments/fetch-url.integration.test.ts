import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../shared/app-error.ts';
import { createTestCore, insertStoredDebate, type TestCore, uniqueEmail } from '../testing/index.ts';
import { ExtractionError } from './extract-text.ts';
import { createSandboxPool } from './extraction-sandbox.ts';

const HOST = '127.0.0.2';
/** Read for far longer than any deadline here: holds a sandbox until its deadline. */
const NESTED = `<html><body>${'<div><span>deep</span>'.repeat(200_000)}</body></html>`;

// fetch-url when this process's extraction sandboxes are all taken: one sandbox, no line, held by a file.
describe('fetch-url with every sandbox busy', () => {
  let test: TestCore;
  let pages: Server;
  let base: string;
  const sandboxes = createSandboxPool(
    { atOnce: 1, queued: { stored: 0, page: 0 } },
    { timeoutMs: 1500, maxMemoryMb: 512 },
  );

  beforeAll(async () => {
    pages = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<html><body><article><p>The lease is renewed for three more years.</p></article></body></html>',
        ),
    );
    await new Promise<void>((resolve) => pages.listen(0, HOST, resolve));
    base = `http://${HOST}:${(pages.address() as AddressInfo).port}`;
    test = await createTestCore(
      {},
      { pageFetch: { policy: { allowPrivate: false, allowedRanges: [`${HOST}/32`] }, sandboxes } },
    );
  });
  afterAll(async () => {
    pages?.close();
    await test?.cleanup();
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After and stores nothing, then reads the page once a sandbox is free', async () => {
    const { id: owner } = await test.core.accounts.createUser({
      email: uniqueEmail('pages'),
      name: 'P',
      plan: 'byok_pro',
    });
    const debateId = await insertStoredDebate(test.core, { ownerId: owner, question: 'Renew?' });
    const holding = sandboxes.extract('stored', 'text/html', new TextEncoder().encode(NESTED));
    const refused = await test.core.attachments.fetchUrl(owner, { debateId, url: `${base}/lease` }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '5' } });
    expect((await test.core.attachments.list(owner, debateId)).attachments).toEqual([]);
    await expect(holding).rejects.toThrow(ExtractionError);
    const stored = await test.core.attachments.fetchUrl(owner, { debateId, url: `${base}/lease` });
    expect(stored).toMatchObject({ kind: 'url', status: 'ready' });
  });
});
