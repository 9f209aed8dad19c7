// An outside project's use of the SDK's audit reads, type-checked with `tsc --strict` and run by
// tests/clients-sdk.test.ts with a Pro account's key: a change made with the key, then the trail read a page
// at a time, verified, and exported as it streams.
import { type AuditEntry, Verdict } from '@verdict/sdk';

const [baseUrl = '', proKey = ''] = process.argv.slice(2);
const say = (record: object) => process.stdout.write(`${JSON.stringify(record)}\n`);

const client = new Verdict({ baseUrl, apiKey: proKey });
const created = await client.keys.create({ name: 'audited by the SDK' });
await client.keys.revoke(created.id);

const listed: AuditEntry[] = [];
for await (const entry of client.audit.list({ action: 'api_key.', limit: 1 })) listed.push(entry);
say({
  step: 'list',
  actions: listed.map((e) => e.action),
  actor: listed[0]?.actor,
  target: listed[0]?.target.id === created.id,
});

const verification = await client.audit.verify();
say({ step: 'verify', verified: verification.verified, entries: verification.entries });

const exported: number[] = [];
for await (const entry of client.audit.export()) exported.push(entry.seq);
say({
  step: 'export',
  seqs: exported.length,
  inOrder: exported.every((seq, i) => i === 0 || seq === (exported[i - 1] ?? 0) + 1),
});
