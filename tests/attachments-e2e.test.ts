import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, minimalPdf } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody, registerUser } from './support/api-client.ts';
import { readSse } from './support/sse.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

// Attachments over HTTP, in each mode: a PDF uploaded to one debate is extracted by the engine (a node of
// its own, or the embedded server's), downloaded byte for byte, and read by the agents of a debate created
// with it. The account is on Enterprise: attachments are included and debates are paid in credits, so the
// agents run on the simulated provider.
describe.each(MODES)('attachments end to end (%s)', (mode) => {
  let stack: Stack;
  let user: ProUser;
  /** A local page for fetch-url, over http: the documented development setting lets the API reach 127.0.0.1. */
  let pages: Server;

  beforeAll(async () => {
    pages = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><title>Lease terms</title></head><body><article><h1>Lease terms</h1><p>The landlord ' +
          'keeps the rent flat for three years if the lease is renewed before March, as the letter of ' +
          'the property manager confirms in writing.</p></article></body></html>',
      );
    });
    pages.listen(0, '127.0.0.1');
    await once(pages, 'listening');
    stack = await startStack(mode, 'attachments', { WEBHOOK_ALLOW_PRIVATE: 'true' });
    user = await signUpPro(stack, 'reader', 'enterprise');
  });
  afterAll(async () => {
    await stack?.stop();
    pages?.close();
  });

  const finished = (debateId: string) =>
    eventually(
      () => user.client.GET('/api/debates/{id}', { params: { path: { id: debateId } } }),
      (res) => res.data?.status === 'completed',
      30_000,
    );

  it('extracts an uploaded PDF on the engine, serves its bytes, and hands its text to the agents', async () => {
    const { debateId: first } = expectBody(
      await user.client.POST('/api/debates', { body: { question: 'Should we renew the office lease?' } }),
      201,
    );
    const pdf = minimalPdf('The landlord offers a 15 percent discount for a five-year renewal.');
    // Multipart goes as the browser would send it; the generated client types JSON bodies.
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'lease offer.pdf');
    const uploaded = await fetch(`${stack.baseUrl}/api/debates/${first}/attachments`, {
      method: 'POST',
      headers: { cookie: user.cookie },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { id: attachmentId } = (await uploaded.json()) as { id: string };

    const ready = await eventually(
      () => user.client.GET('/api/debates/{id}/attachments', { params: { path: { id: first } } }),
      (res) => res.data?.attachments[0]?.status === 'ready',
      20_000,
    );
    expect(ready.data?.attachments[0]?.textLength).toBeGreaterThan(40);

    const download = await user.client.GET('/api/debates/{id}/attachments/{attachmentId}/download', {
      params: { path: { id: first, attachmentId } },
      parseAs: 'arrayBuffer',
    });
    expect(download.response.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''lease%20offer.pdf",
    );
    expect(new Uint8Array(download.data as unknown as ArrayBuffer)).toEqual(pdf);

    const { debateId: second } = expectBody(
      await user.client.POST('/api/debates', {
        body: { question: 'Should we renew the office lease for five years?', attachmentIds: [attachmentId] },
      }),
      201,
    );
    await finished(second);
    // Every argument and rebuttal, as the finished debate's stream replays them.
    const stream = await readSse(`${stack.baseUrl}/api/debates/${second}/stream`, { cookie: user.cookie });
    const turns = stream.messages.filter((m) => m.event === 'argument' || m.event === 'rebuttal');
    expect(turns.length).toBeGreaterThan(0);
    for (const turn of turns)
      expect(turn.data.content).toContain('I have read the attached "lease offer.pdf".');
  }, 90_000);

  it('attaches a fetched page as readable text, lists it, and deletes it', async () => {
    const { debateId } = expectBody(
      await user.client.POST('/api/debates', {
        body: { question: 'Should we renew the lease before March?' },
      }),
      201,
    );
    const url = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/terms`;
    const page = expectBody(
      await user.client.POST('/api/debates/fetch-url', { body: { debateId, url } }),
      201,
    );
    expect(page).toMatchObject({ kind: 'url', status: 'ready' });
    const listed = expectBody(
      await user.client.GET('/api/debates/{id}/attachments', { params: { path: { id: debateId } } }),
      200,
    );
    expect(listed.attachments.map((a) => a.id)).toEqual([page.id]);
    const removed = await user.client.DELETE('/api/debates/{id}/attachments/{attachmentId}', {
      params: { path: { id: debateId, attachmentId: page.id } },
    });
    expect(removed.response.status).toBe(204);
    const after = expectBody(
      await user.client.GET('/api/debates/{id}/attachments', { params: { path: { id: debateId } } }),
      200,
    );
    expect(after.attachments).toEqual([]);
  });

  // Last: where the refusal is not answered, the embedded server's one database connection stays taken.
  it('refuses (403) to delete an attachment of a public debate for someone who may read it but does not own it', async () => {
    const { debateId } = expectBody(
      await user.client.POST('/api/debates', { body: { question: 'Should the lease terms be public?' } }),
      201,
    );
    const url = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/terms`;
    const page = expectBody(
      await user.client.POST('/api/debates/fetch-url', { body: { debateId, url } }),
      201,
    );
    expectBody(
      await user.client.PATCH('/api/debates/{id}/visibility', {
        params: { path: { id: debateId } },
        body: { isPublic: true },
      }),
      200,
    );
    const reader = await registerUser(stack.baseUrl, 'passer-by');
    const refused = await apiClient(stack.baseUrl, { cookie: reader.cookie }).DELETE(
      '/api/debates/{id}/attachments/{attachmentId}',
      // An answer that never comes fails here, not at the test's timeout.
      { params: { path: { id: debateId, attachmentId: page.id } }, signal: AbortSignal.timeout(10_000) },
    );
    expect(refused.response.status).toBe(403);
    expect(refused.error?.error.code).toBe('FORBIDDEN');
    const kept = expectBody(
      await user.client.GET('/api/debates/{id}/attachments', { params: { path: { id: debateId } } }),
      200,
    );
    expect(kept.attachments.map((a) => a.id)).toEqual([page.id]);
  });
});
