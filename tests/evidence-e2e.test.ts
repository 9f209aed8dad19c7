import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CitedEvidence } from '@verdict/contracts';
import { quoteOffsetIn } from '@verdict/core';
import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody, registerUser } from './support/api-client.ts';
import { readSse } from './support/sse.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

const PRICING_MEMO = [
  'Our annual plan costs customers 20 percent less than paying monthly, and most renewals happen in January.',
  '',
  'Churn among monthly customers doubled after the last price rise, while annual customers barely moved.',
].join('\n');
const SUPPORT_NOTES = [
  'Support tickets about invoices rose by a third in the second quarter.',
  '',
  'The finance team needs two weeks of notice before any change to billing terms.',
].join('\n');
const PAGE_HTML =
  '<html><head><title>Competitor pricing</title></head><body><article><h1>Competitor pricing</h1>' +
  '<p>The two largest competitors both raised prices by ten percent this year and kept their annual ' +
  'discounts unchanged, according to their published price lists.</p></article></body></html>';

// The evidence engine end to end, in each mode: an Enterprise account's debate with two uploaded files, a
// fetched page and a context runs on the simulated debaters, which cite and quote the passages they are
// given (some quotes deliberately wrong). The verdict's key evidence must quote only passages that exist,
// each verified; a wrong quote is kept in its turn, marked unverified, and never becomes key evidence.
describe.each(MODES)('the evidence engine end to end (%s)', (mode) => {
  let stack: Stack;
  let owner: ProUser;
  let free: ApiClient;
  let pages: Server;
  let debateId: string;

  beforeAll(async () => {
    pages = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE_HTML);
    });
    pages.listen(0, '127.0.0.1');
    await once(pages, 'listening');
    stack = await startStack(mode, 'evidence', { WEBHOOK_ALLOW_PRIVATE: 'true' });
    owner = await signUpPro(stack, 'evidence-owner', 'enterprise');
    free = apiClient(stack.baseUrl, { cookie: (await registerUser(stack.baseUrl, 'evidence-free')).cookie });

    // The sources go to a first debate; the debate under test is created with them, so they are ready
    // before its first round.
    const { debateId: holder } = expectBody(
      await owner.client.POST('/api/debates', { body: { question: 'Where do our pricing documents live?' } }),
      201,
    );
    const upload = async (name: string, text: string) => {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'text/plain' }), name);
      const res = await fetch(`${stack.baseUrl}/api/debates/${holder}/attachments`, {
        method: 'POST',
        headers: { cookie: owner.cookie },
        body: form,
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const files = [
      await upload('pricing-memo.txt', PRICING_MEMO),
      await upload('support-notes.md', SUPPORT_NOTES),
    ];
    const url = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/competitors`;
    const page = expectBody(
      await owner.client.POST('/api/debates/fetch-url', { body: { debateId: holder, url } }),
      201,
    );
    await eventually(
      () => owner.client.GET('/api/debates/{id}/attachments', { params: { path: { id: holder } } }),
      (res) => res.data?.attachments.length === 3 && res.data.attachments.every((a) => a.status === 'ready'),
      30_000,
    );
    debateId = expectBody(
      await owner.client.POST('/api/debates', {
        body: {
          question: 'Should we raise the price of the monthly plan by ten percent?',
          context:
            'We sell a monthly and an annual plan. The board wants a decision before the January renewals.',
          agentCount: 4,
          maxRounds: 2,
          skipCache: true,
          attachmentIds: [...files, page.id],
        },
      }),
      201,
    ).debateId;
    await eventually(
      () => owner.client.GET('/api/debates/{id}', { params: { path: { id: debateId } } }),
      (res) => res.data?.status === 'completed',
      90_000,
    );
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    pages?.close();
  });

  const evidenceOf = async () =>
    expectBody(
      await owner.client.GET('/api/debates/{id}/evidence', { params: { path: { id: debateId } } }),
      200,
    );

  it('cuts every source into passages: both files, the fetched page and the context', async () => {
    const evidence = await evidenceOf();
    expect(evidence).toMatchObject({ debateId, status: 'completed', attempt: 1, evidence: 'on' });
    const titles = new Set(evidence.passages.map((p) => p.source.title));
    expect(titles.size).toBe(4);
    for (const title of ['pricing-memo.txt', 'support-notes.md', 'Context']) expect(titles).toContain(title);
    expect(new Set(evidence.passages.map((p) => p.source.kind))).toEqual(
      new Set(['attachment', 'page', 'context']),
    );
    const page = evidence.passages.find((p) => p.source.kind === 'page');
    expect(page?.source.url).toMatch(/\/competitors$/);
    expect(page?.text).toContain('raised prices by ten percent');
    expect(evidence.passages.map((p) => p.evidenceId)).toEqual(evidence.passages.map((_, i) => `E${i + 1}`));
  });

  it('builds key evidence only from verified quotes of passages that exist', async () => {
    const [{ passages }, verdict] = await Promise.all([
      evidenceOf(),
      owner.client.GET('/api/debates/{id}/verdict', { params: { path: { id: debateId } } }),
    ]);
    const full = expectBody(verdict, 200);
    expect(full.verdict?.evidence).toBe('on');
    const key = (full.verdict?.keyEvidence ?? []) as CitedEvidence[];
    expect(key.length).toBeGreaterThan(0);
    for (const entry of key) {
      const passage = passages.find((p) => p.evidenceId === entry.evidenceId);
      expect(passage, entry.evidenceId).toBeDefined();
      expect(entry.verified).toBe(true);
      expect(entry.source).toEqual(passage?.source);
      const at = quoteOffsetIn(passage?.text ?? '', entry.quote);
      expect(at, entry.quote).not.toBeNull();
      expect(entry.offset).toBe((passage?.start ?? 0) + (at ?? 0));
      for (const claimId of entry.supports) expect(passage?.supports).toContain(claimId);
    }
  });

  it('keeps a wrong quote in its turn, marked unverified, and out of key evidence', async () => {
    const stream = await readSse(`${stack.baseUrl}/api/debates/${debateId}/stream`, { cookie: owner.cookie });
    const turns = stream.messages.filter((m) => m.event === 'argument' || m.event === 'rebuttal');
    const citations = turns.flatMap((t) =>
      ((t.data.citations ?? []) as { evidenceId: string; quote: string | null; verified: boolean }[]).map(
        (c) => ({
          ...c,
          content: t.data.content as string,
        }),
      ),
    );
    const wrong = citations.filter((c) => !c.verified && c.quote !== null);
    expect(wrong.length).toBeGreaterThan(0);
    expect(citations.some((c) => c.verified)).toBe(true);
    const { passages } = await evidenceOf();
    const full = expectBody(
      await owner.client.GET('/api/debates/{id}/verdict', { params: { path: { id: debateId } } }),
      200,
    );
    const key = (full.verdict?.keyEvidence ?? []) as CitedEvidence[];
    for (const citation of wrong) {
      expect(citation.content).toContain(citation.quote);
      const passage = passages.find((p) => p.evidenceId === citation.evidenceId);
      if (passage) expect(quoteOffsetIn(passage.text, citation.quote ?? '')).toBeNull();
      expect(key.some((k) => k.quote === citation.quote)).toBe(false);
      // Listed under its passage as unverified, and bearing on nothing.
      const listed = passage?.citations.find((c) => c.quote === citation.quote);
      if (passage) expect(listed?.verified).toBe(false);
    }
  });

  it('answers the same evidence on /v1 beside the verdict, for a key', async () => {
    const { key } = expectBody(await owner.client.POST('/api/keys', { body: { name: 'evidence' } }), 201);
    const keyed = apiClient(stack.baseUrl, { key });
    const v1 = expectBody(
      await keyed.GET('/v1/verdicts/{id}/evidence', { params: { path: { id: debateId } } }),
      200,
    );
    expect(v1).toEqual(await evidenceOf());
  });

  it('refuses a free account with 402 and the upgrade hint, on /api and /v1', async () => {
    expectBody(
      await owner.client.PATCH('/api/debates/{id}/visibility', {
        params: { path: { id: debateId } },
        body: { isPublic: true },
      }),
      200,
    );
    const refused = await free.GET('/api/debates/{id}/evidence', { params: { path: { id: debateId } } });
    expect(refused.response.status).toBe(402);
    expect(refused.error).toMatchObject({
      error: { code: 'BYOK_REQUIRED', requiredPlan: 'pro', upgradeUrl: expect.stringMatching(/\/pricing$/) },
    });
    const { key } = expectBody(await free.POST('/api/keys', { body: { name: 'free' } }), 201);
    const keyed = apiClient(stack.baseUrl, { key });
    const v1 = await keyed.GET('/v1/verdicts/{id}/evidence', { params: { path: { id: debateId } } });
    expect(v1.response.status).toBe(402);
    expect(v1.error).toMatchObject({ error: { code: 'BYOK_REQUIRED', requiredPlan: 'pro' } });
  });

  it('shows a share link the passages its transcript cites, and no others', async () => {
    const link = expectBody(
      await owner.client.POST('/api/share/{debateId}', { params: { path: { debateId } } }),
      200,
    );
    const token = link.shareUrl.split('/').at(-1) as string;
    const shared = expectBody(
      await free.GET('/api/public/debates/{token}', { params: { path: { token } } }),
      200,
    );
    const cited = new Set(shared.transcript.flatMap((t) => (t.citations ?? []).map((c) => c.evidenceId)));
    expect(cited.size).toBeGreaterThan(0);
    expect(new Set(shared.citedPassages.map((p) => p.evidenceId))).toEqual(cited);
  });
});
