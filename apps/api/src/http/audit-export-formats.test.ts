import type { AuditEntry } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, csvField, exportChunks } from './audit-export-formats.ts';

const entry = (seq: number, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  chain: 'account:u',
  seq,
  at: '2026-06-01T00:00:00.000Z',
  actor: { kind: 'user', id: 'u', keyId: null },
  action: 'webhook.update',
  target: { type: 'webhook', id: 'w' },
  origin: { ip: '203.0.113.7', userAgent: null, requestId: 'r' },
  changes: {},
  prevHash: '0'.repeat(64),
  hash: 'f'.repeat(64),
  ...extra,
});

async function text(chunks: AsyncIterable<string>) {
  let all = '';
  for await (const chunk of chunks) all += chunk;
  return all;
}

async function* entries(list: AuditEntry[]) {
  yield* list;
}

describe('the audit export formats', () => {
  it('quotes a CSV field as RFC 4180 says: only with a comma, quote or line break, quotes doubled', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(null)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    // Written as stored: a leading = is data, not rewritten for spreadsheets.
    expect(csvField('=1+1')).toBe('=1+1');
  });

  it('writes a CSV header row, then a CRLF row per entry with changes as JSON text', async () => {
    const changes = { name: { before: 'a, "b"', after: 'c' } };
    const csv = await text(exportChunks('csv', entries([entry(1), entry(2, { changes })])));
    const rows = csv.split('\r\n');
    expect(rows[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    expect(rows[1]).toBe(
      `account:u,1,2026-06-01T00:00:00.000Z,user,u,,webhook.update,webhook,w,203.0.113.7,,r,{},${'0'.repeat(64)},${'f'.repeat(64)}`,
    );
    expect(rows[2]).toContain(`,"${JSON.stringify(changes).replaceAll('"', '""')}",`);
    expect(rows[3]).toBe('');
    expect(rows).toHaveLength(4);
  });

  it('writes NDJSON as one entry per line, and nothing at all for no entries', async () => {
    const ndjson = await text(exportChunks('ndjson', entries([entry(1), entry(2)])));
    expect(
      ndjson
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line).seq),
    ).toEqual([1, 2]);
    expect(ndjson.endsWith('\n')).toBe(true);
    expect(await text(exportChunks('ndjson', entries([])))).toBe('');
    expect(await text(exportChunks('csv', entries([])))).toBe(`${AUDIT_CSV_COLUMNS.join(',')}\r\n`);
  });

  it('gathers lines into chunks of about 64 KB rather than a write per entry', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => entry(i + 1));
    const chunks: string[] = [];
    for await (const chunk of exportChunks('ndjson', entries(many))) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.length).toBeLessThan(20);
    expect(chunks.join('').split('\n')).toHaveLength(2001);
  });
});
