import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actingAs,
  auditEntriesOf,
  createTestCore,
  insertStoredDebate,
  insertTestWorkspace,
  placeDebateIn,
  type TestCore,
  uniqueEmail,
  userEntry,
} from '../testing/index.ts';

const HOST = '127.0.0.2';
const NOTES = 'The lease is renewed for three more years.';

describe('the audit trail of attachments', () => {
  let test: TestCore;
  let pages: Server;
  let base: string;
  beforeAll(async () => {
    pages = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><p>${NOTES}</p></body></html>`),
    );
    await new Promise<void>((resolve) => pages.listen(0, HOST, resolve));
    base = `http://${HOST}:${(pages.address() as AddressInfo).port}`;
    test = await createTestCore(
      {},
      { pageFetch: { policy: { allowPrivate: false, allowedRanges: [`${HOST}/32`] } } },
    );
  });
  afterAll(async () => {
    pages?.close();
    await test?.cleanup();
  });

  const newUser = async (plan: 'free' | 'byok_pro' = 'byok_pro') =>
    (await test.core.accounts.createUser({ email: uniqueEmail('attach-audit'), name: 'A', plan })).id;
  const newDebate = (ownerId: string) => insertStoredDebate(test.core, { ownerId, question: 'Renew?' });
  const notes = { filename: 'notes.md', bytes: new TextEncoder().encode(NOTES) };

  it('records an upload and a fetched page with name, kind, size and type, and a deletion, never the content', async () => {
    const userId = await newUser();
    const debateId = await newDebate(userId);
    const file = await actingAs(userId, () => test.core.attachments.upload(userId, debateId, notes));
    const page = await actingAs(userId, () =>
      test.core.attachments.fetchUrl(userId, { debateId, url: `${base}/lease` }),
    );
    await actingAs(userId, () => test.core.attachments.remove(userId, debateId, file.id));
    const rows = await auditEntriesOf(test.core, { accountId: userId });
    expect(rows).toMatchObject([
      userEntry(
        userId,
        'attachment.create',
        { type: 'attachment', id: file.id },
        {
          debateId: { before: null, after: debateId },
          filename: { before: null, after: 'notes.md' },
          kind: { before: null, after: 'file' },
          size: { before: null, after: notes.bytes.byteLength },
          contentType: { before: null, after: file.contentType },
        },
      ),
      userEntry(
        userId,
        'attachment.create',
        { type: 'attachment', id: page.id },
        {
          filename: { before: null, after: HOST },
          kind: { before: null, after: 'url' },
          size: { before: null, after: page.size },
          contentType: { before: null, after: page.contentType },
        },
      ),
      userEntry(userId, 'attachment.delete', { type: 'attachment', id: file.id }),
    ]);
    expect(JSON.stringify(rows)).not.toContain('three more years');
  });

  it('records an attachment of a workspace’s debate in the workspace’s trail', async () => {
    const userId = await newUser();
    const workspaceId = await insertTestWorkspace(test.core, userId);
    const debateId = await newDebate(userId);
    await placeDebateIn(test.core, debateId, workspaceId);
    const file = await actingAs(userId, () => test.core.attachments.upload(userId, debateId, notes));
    expect(await auditEntriesOf(test.core, { workspaceId })).toMatchObject([
      userEntry(userId, 'attachment.create', { type: 'attachment', id: file.id }, expect.anything()),
    ]);
    expect(await auditEntriesOf(test.core, { accountId: userId })).toEqual([]);
  });

  it('records nothing for a refused upload or deletion', async () => {
    const userId = await newUser();
    const stranger = await newUser();
    const debateId = await newDebate(userId);
    const file = await test.core.attachments.upload(userId, debateId, notes);
    const before = (await auditEntriesOf(test.core, { accountId: userId })).length;
    const freeUser = await newUser('free');
    const freeDebate = await newDebate(freeUser);
    await expect(test.core.attachments.upload(freeUser, freeDebate, notes)).rejects.toMatchObject({
      code: 'BYOK_REQUIRED',
    });
    await expect(
      test.core.attachments.upload(userId, debateId, { filename: 'run.exe', bytes: notes.bytes }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(test.core.attachments.remove(stranger, debateId, file.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(test.core.attachments.remove(userId, debateId, crypto.randomUUID())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await auditEntriesOf(test.core, { accountId: userId })).toHaveLength(before);
    expect(await auditEntriesOf(test.core, { accountId: freeUser })).toEqual([]);
    expect(await auditEntriesOf(test.core, { accountId: stranger })).toEqual([]);
  });
});
