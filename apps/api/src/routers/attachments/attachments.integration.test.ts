import { ATTACHMENT_BYTES_MAX, Attachment, AttachmentList } from '@verdict/contracts';
import { databaseBlobStore, extractPendingAttachments } from '@verdict/core';
import { insertStoredDebate, minimalDocx, minimalPdf } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../auth/credentials.ts';
import {
  expectError,
  type Harness,
  type HttpResult,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const as = (user: TestUser) => ({ cookie: user.cookie });

describe('debate attachments', () => {
  let h: Harness;
  let owner: TestUser;
  let stranger: TestUser;
  let freeUser: TestUser;
  let debateId: string;

  /** Uploads `parts` (name → [filename, bytes, content type]) as multipart/form-data with the user's cookie. */
  const upload = async (
    user: TestUser,
    debate: string,
    parts: [field: string, filename: string, bytes: Uint8Array, type?: string][],
  ): Promise<HttpResult<Attachment>> => {
    const form = new FormData();
    for (const [field, filename, bytes, type] of parts) {
      form.append(field, new Blob([bytes], { type: type ?? 'application/octet-stream' }), filename);
    }
    const response = await fetch(`${h.baseUrl}/api/debates/${debate}/attachments`, {
      method: 'POST',
      headers: { cookie: `${SESSION_COOKIE}=${user.cookie}` },
      body: form,
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: text ? JSON.parse(text) : undefined,
    };
  };
  const uploadOne = (user: TestUser, debate: string, filename: string, bytes: Uint8Array, type?: string) =>
    upload(user, debate, [['file', filename, bytes, type]]);

  const list = async (user: TestUser, debate: string) => {
    const res = await h.request<AttachmentList>('GET', `/api/debates/${debate}/attachments`, as(user));
    expect(res.status, res.text).toBe(200);
    return AttachmentList.parse(res.json).attachments;
  };
  const extract = () =>
    extractPendingAttachments(h.core.db, databaseBlobStore(h.core.db), { clock: h.core.clock });
  const storedText = async (id: string) =>
    (
      (await h.core.db.execute('select text from attachments where id = ?', [id])) as {
        text: string | null;
      }[]
    )[0]?.text;
  const newDebate = (user: TestUser) =>
    insertStoredDebate(h.core, { ownerId: user.session.user.id, question: 'Q?' });

  beforeAll(async () => {
    h = await startServer();
    owner = await registerUser(h);
    stranger = await registerUser(h);
    freeUser = await registerUser(h);
    await h.core.accounts.setPlan(owner.session.user.id, 'byok_pro');
    await h.core.accounts.setPlan(stranger.session.user.id, 'byok_pro');
    debateId = await newDebate(owner);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('stores a PDF at once as pending, and a pass of the extraction worker makes its text ready', async () => {
    const pdf = minimalPdf('Revenue grew 12 percent in the third quarter');
    const res = await uploadOne(owner, debateId, 'report.pdf', pdf, 'application/pdf');
    expect(res.status, res.text).toBe(201);
    const stored = Attachment.parse(res.json);
    expect(stored).toMatchObject({
      debateId,
      kind: 'file',
      filename: 'report.pdf',
      contentType: 'application/pdf',
      size: pdf.byteLength,
      status: 'pending',
      failureReason: null,
      url: null,
      textLength: null,
    });
    expect(await extract()).toBeGreaterThanOrEqual(1);
    const [after] = (await list(owner, debateId)).filter((a) => a.id === stored.id);
    expect(after).toMatchObject({ status: 'ready', failureReason: null });
    expect(await storedText(stored.id)).toContain('Revenue grew 12 percent in the third quarter');
    expect(after?.textLength).toBe((await storedText(stored.id))?.length);
  });

  it('extracts the paragraphs of a Word document', async () => {
    const debate = await newDebate(owner);
    const res = await uploadOne(
      owner,
      debate,
      'brief.docx',
      minimalDocx(['Option A is cheaper', 'Option B is faster']),
    );
    expect(res.status, res.text).toBe(201);
    await extract();
    expect((await list(owner, debate))[0]?.status).toBe('ready');
    expect(await storedText(res.json.id)).toBe('Option A is cheaper\n\nOption B is faster');
  });

  it('downloads the exact stored bytes as an attachment with the stored type, never sniffed', async () => {
    const debate = await newDebate(owner);
    const bytes = new TextEncoder().encode('# Notes\n\nnaïve café ✓\n');
    const res = await uploadOne(owner, debate, 'Rapport été.md', bytes, 'text/html');
    expect(res.status, res.text).toBe(201);
    const download = await fetch(`${h.baseUrl}/api/debates/${debate}/attachments/${res.json.id}/download`, {
      headers: { cookie: `${SESSION_COOKIE}=${owner.cookie}` },
    });
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    expect(download.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Rapport _t_.md"; filename*=UTF-8''Rapport%20%C3%A9t%C3%A9.md`,
    );
  });

  it('ignores the part’s Content-Type: a real PDF sent as text/plain is stored as a PDF', async () => {
    const debate = await newDebate(owner);
    const res = await uploadOne(owner, debate, 'scan.PDF', minimalPdf('x'), 'text/plain');
    expect(res.status, res.text).toBe(201);
    expect(res.json.contentType).toBe('application/pdf');
  });

  it('refuses a forged file: a .pdf whose bytes are HTML, whatever Content-Type the part claims', async () => {
    const forged = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    const error = expectError(
      await uploadOne(owner, debateId, 'invoice.pdf', forged, 'application/pdf'),
      'VALIDATION_ERROR',
    );
    expect(error.details?.[0]).toMatchObject({ path: 'file', code: 'content_mismatch' });
  });

  it('refuses other extensions with 400 VALIDATION_ERROR naming the accepted ones', async () => {
    const error = expectError(
      await uploadOne(owner, debateId, 'tool.exe', new Uint8Array([1, 2])),
      'VALIDATION_ERROR',
    );
    expect(error.details?.[0]).toMatchObject({ path: 'file', code: 'invalid_extension' });
    expect(error.message).toMatch(/\.pdf, \.txt, \.md, \.docx/);
  });

  it('refuses a file over 10 MB with 400 VALIDATION_ERROR and stores nothing', async () => {
    const debate = await newDebate(owner);
    const big = new Uint8Array(ATTACHMENT_BYTES_MAX + 1).fill(0x61);
    const error = expectError(await uploadOne(owner, debate, 'big.txt', big), 'VALIDATION_ERROR');
    expect(error.details?.[0]).toMatchObject({ path: 'file', code: 'too_big' });
    expect(await list(owner, debate)).toEqual([]);
    const exactly = new Uint8Array(ATTACHMENT_BYTES_MAX).fill(0x61);
    expect((await uploadOne(owner, debate, 'max.txt', exactly)).status).toBe(201);
  });

  it('refuses a body that is not one file part named file', async () => {
    const txt = new TextEncoder().encode('a');
    const two = await upload(owner, debateId, [
      ['file', 'a.txt', txt],
      ['file', 'b.txt', txt],
    ]);
    expect(expectError(two, 'VALIDATION_ERROR').details?.[0]).toMatchObject({ code: 'invalid_multipart' });
    const misnamed = await upload(owner, debateId, [['document', 'a.txt', txt]]);
    expectError(misnamed, 'VALIDATION_ERROR');
    const json = await h.request('POST', `/api/debates/${debateId}/attachments`, {
      ...as(owner),
      body: { file: 'x' },
    });
    expectError(json, 'VALIDATION_ERROR');
  });

  it('refuses a sixth attachment, even when six uploads race', async () => {
    const debate = await newDebate(owner);
    const txt = (i: number) => new TextEncoder().encode(`note ${i}`);
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) => uploadOne(owner, debate, `n${i}.txt`, txt(i))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 400]);
    expect(
      expectError(results.find((r) => r.status === 400)!, 'VALIDATION_ERROR').details?.[0],
    ).toMatchObject({
      code: 'too_many',
    });
    expect(await list(owner, debate)).toHaveLength(5);
    expectError(await uploadOne(owner, debate, 'n7.txt', txt(7)), 'VALIDATION_ERROR');
  });

  it('answers 404 on another user’s debate, for upload, list, download and delete alike', async () => {
    const res = await uploadOne(owner, debateId, 'mine.txt', new TextEncoder().encode('mine'));
    expect(res.status).toBe(201);
    expectError(await uploadOne(stranger, debateId, 'x.txt', new TextEncoder().encode('x')), 'NOT_FOUND');
    expectError(await h.request('GET', `/api/debates/${debateId}/attachments`, as(stranger)), 'NOT_FOUND');
    const path = `/api/debates/${debateId}/attachments/${res.json.id}`;
    expectError(await h.request('GET', `${path}/download`, as(stranger)), 'NOT_FOUND');
    expectError(await h.request('DELETE', path, as(stranger)), 'NOT_FOUND');
    expectError(await uploadOne(owner, MISSING, 'x.txt', new TextEncoder().encode('x')), 'NOT_FOUND');
  });

  it('answers 403 when a reader of a public debate who does not own it deletes an attachment', async () => {
    const debate = await insertStoredDebate(h.core, {
      ownerId: owner.session.user.id,
      question: 'Q?',
      isPublic: true,
    });
    const res = await uploadOne(owner, debate, 'public.txt', new TextEncoder().encode('p'));
    expectError(
      await h.request('DELETE', `/api/debates/${debate}/attachments/${res.json.id}`, as(stranger)),
      'FORBIDDEN',
    );
    expect(await list(owner, debate)).toHaveLength(1);
  });

  it('needs BYOK Pro: others get 402 BYOK_REQUIRED naming the plan', async () => {
    const debate = await newDebate(freeUser);
    const res = await uploadOne(freeUser, debate, 'a.txt', new TextEncoder().encode('a'));
    const error = expectError(res, 'BYOK_REQUIRED', { extras: ['requiredPlan', 'upgradeUrl'] }) as {
      requiredPlan?: string;
    };
    expect(error.requiredPlan).toBe('byok_pro');
  });

  it('deletes an attachment with its bytes: gone from the list and from download', async () => {
    const debate = await newDebate(owner);
    const res = await uploadOne(owner, debate, 'gone.txt', new TextEncoder().encode('bye'));
    const path = `/api/debates/${debate}/attachments/${res.json.id}`;
    const removed = await h.request('DELETE', path, as(owner));
    expect(removed.status, removed.text).toBe(204);
    expect(await list(owner, debate)).toEqual([]);
    expectError(await h.request('GET', `${path}/download`, as(owner)), 'NOT_FOUND');
    expectError(await h.request('DELETE', path, as(owner)), 'NOT_FOUND');
    const blobs = (await h.core.db.execute(
      'select count(*)::int as n from attachment_blobs where attachment_id = ?',
      [res.json.id],
    )) as { n: number }[];
    expect(blobs[0]?.n).toBe(0);
  });

  describe('attachmentIds on POST /api/debates', () => {
    const create = (user: TestUser, attachmentIds: string[]) =>
      h.request<{ debateId: string }>('POST', '/api/debates', {
        ...as(user),
        // BYOK Pro runs on the caller's keys; no engine runs here, so they are never used.
        headers: { 'X-Provider-Keys': 'openai:sk-test-attachments' },
        body: { question: 'Should we hire two engineers this quarter?', attachmentIds },
      });

    it('copies the caller’s ready attachments onto the new debate, leaving the originals', async () => {
      const source = await newDebate(owner);
      const ready = await uploadOne(owner, source, 'budget.txt', new TextEncoder().encode('Two hires fit.'));
      await extract();
      const res = await create(owner, [ready.json.id]);
      expect(res.status, res.text).toBe(201);
      const copied = await list(owner, res.json.debateId);
      expect(copied).toHaveLength(1);
      expect(copied[0]).toMatchObject({ filename: 'budget.txt', status: 'ready', size: 14 });
      expect(copied[0]?.id).not.toBe(ready.json.id);
      expect(await storedText(copied[0]?.id ?? '')).toBe('Two hires fit.');
      const download = await h.request(
        'GET',
        `/api/debates/${res.json.debateId}/attachments/${copied[0]?.id}/download`,
        as(owner),
      );
      expect(download.text).toBe('Two hires fit.');
      expect(await list(owner, source)).toHaveLength(1);
    });

    it('refuses, creating nothing, attachments that are pending, another user’s, or unknown', async () => {
      const source = await newDebate(owner);
      const pending = await uploadOne(owner, source, 'later.txt', new TextEncoder().encode('not yet'));
      const theirs = await uploadOne(
        stranger,
        await newDebate(stranger),
        'theirs.txt',
        new TextEncoder().encode('x'),
      );
      await h.core.db.execute(`update attachments set status = 'pending' where id = ?`, [pending.json.id]);
      for (const id of [pending.json.id, theirs.json.id, MISSING]) {
        const error = expectError(await create(owner, [id]), 'VALIDATION_ERROR');
        expect(error.details?.[0]).toMatchObject({ path: 'attachmentIds.0', code: 'not_found' });
      }
      const debates = (await h.core.db.execute('select count(*)::int as n from debates where owner_id = ?', [
        owner.session.user.id,
      ])) as { n: number }[];
      const before = debates[0]?.n;
      expectError(await create(owner, [MISSING]), 'VALIDATION_ERROR');
      const after = (await h.core.db.execute('select count(*)::int as n from debates where owner_id = ?', [
        owner.session.user.id,
      ])) as { n: number }[];
      expect(after[0]?.n).toBe(before);
    });
  });
});
