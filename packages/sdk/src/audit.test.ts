import { describe, expect, it } from 'vitest';
import { PlanRequiredError, Verdict } from './client.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const entry = (seq: number) => ({
  chain: 'account:u',
  seq,
  at: '2026-06-01T00:00:00.000Z',
  actor: { kind: 'user', id: 'u', keyId: null },
  action: 'webhook.update',
  target: { type: 'webhook', id: 'w' },
  origin: { ip: null, userAgent: null, requestId: null },
  changes: {},
  prevHash: '0'.repeat(64),
  hash: 'f'.repeat(64),
});

/** A client whose every request `answer` answers, recording the URLs asked for. */
function clientAnswering(answer: (url: URL) => Response) {
  const asked: URL[] = [];
  const client = new Verdict({
    baseUrl: 'http://api.test',
    apiKey: 'vrd_test',
    maxRetries: 0,
    fetch: async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      asked.push(url);
      return answer(url);
    },
  });
  return { client, asked };
}

describe('the audit resource', () => {
  it('lists every entry page after page, passing each nextCursor back as cursor', async () => {
    const { client, asked } = clientAnswering((url) =>
      url.searchParams.get('cursor') === 'c1'
        ? json({ entries: [entry(1)], nextCursor: null })
        : json({ entries: [entry(3), entry(2)], nextCursor: 'c1' }),
    );
    const seqs: number[] = [];
    for await (const item of client.audit.list({ action: 'webhook.', limit: 2 })) seqs.push(item.seq);
    expect(seqs).toEqual([3, 2, 1]);
    expect(asked.map((url) => url.pathname)).toEqual(['/api/audit', '/api/audit']);
    expect(asked[1]?.searchParams.get('action')).toBe('webhook.');
    expect(asked[1]?.searchParams.get('limit')).toBe('2');
  });

  it('reads the NDJSON export as entries however its lines are cut across chunks', async () => {
    const text = `${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n${JSON.stringify(entry(3))}\n`;
    const bytes = new TextEncoder().encode(text);
    const { client, asked } = clientAnswering(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              // Chunks that end mid-line, as a network delivers them.
              for (let at = 0; at < bytes.length; at += 37) controller.enqueue(bytes.slice(at, at + 37));
              controller.close();
            },
          }),
          { headers: { 'content-type': 'application/x-ndjson; charset=utf-8' } },
        ),
    );
    const seqs: number[] = [];
    for await (const item of client.audit.export({ workspaceId: '6f1c1b0e-7d2a-4c1e-9f5e-1a2b3c4d5e6f' })) {
      seqs.push(item.seq);
    }
    expect(seqs).toEqual([1, 2, 3]);
    expect(asked[0]?.pathname).toBe('/api/audit/export');
    expect(asked[0]?.searchParams.get('format')).toBe('ndjson');
  });

  it('cancels the export when the caller stops reading, so the server stops writing', async () => {
    let cancelled = false;
    const { client } = clientAnswering(
      () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              controller.enqueue(new TextEncoder().encode(`${JSON.stringify(entry(1))}\n`));
            },
            cancel() {
              cancelled = true;
            },
          }),
          { headers: { 'content-type': 'application/x-ndjson; charset=utf-8' } },
        ),
    );
    for await (const item of client.audit.export()) {
      expect(item.seq).toBe(1);
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('throws a PlanRequiredError for a 402 of the audit log', async () => {
    const { client } = clientAnswering(() =>
      json(
        {
          error: {
            code: 'BYOK_REQUIRED',
            message: 'The audit log needs the Pro, BYOK Pro or Enterprise plan',
            requiredPlan: 'pro',
            upgradeUrl: 'http://app.test/pricing',
          },
        },
        402,
      ),
    );
    await expect(client.audit.verify()).rejects.toBeInstanceOf(PlanRequiredError);
    await expect(client.audit.export().next()).rejects.toBeInstanceOf(PlanRequiredError);
  });
});
