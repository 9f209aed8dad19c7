import { AttachmentList } from '@verdict/contracts';
import { databaseBlobStore, extractPendingAttachments } from '@verdict/core';
import { debateReaching, eventually, insertPendingDebate, insertStoredDebate } from '@verdict/core/testing';
import type { EngineNode } from '@verdict/engine';
import { startTestEngine } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerUser, startServer, type TestUser } from '../../testing/http-harness.ts';

describe('attachments on an engine node', () => {
  let h: Harness;
  let owner: TestUser;
  let engine: EngineNode | null = null;

  beforeAll(async () => {
    h = await startServer();
    owner = await registerUser(h);
    await h.core.accounts.setPlan(owner.session.user.id, 'byok_pro');
  }, 60_000);
  afterAll(async () => {
    await engine?.stop();
    await h?.close();
  });

  it('reach the debaters of a debate, and pending ones are extracted by the node’s worker', async () => {
    // Queued before the node starts, so the ready attachment is there when the first round begins.
    const { id } = await insertPendingDebate(h.core, {
      ownerId: owner.session.user.id,
      question: 'Should we hire two engineers this quarter?',
      agents: 3,
      rounds: 1,
    });
    const attach = (filename: string, text: string) =>
      h.core.attachments.upload(owner.session.user.id, id, {
        filename,
        bytes: new TextEncoder().encode(text),
      });
    await attach('budget.txt', 'The 2027 budget allows two new hires.');
    expect(
      await extractPendingAttachments(h.core.db, databaseBlobStore(h.core.db), { clock: h.core.clock }),
    ).toBe(1);
    const late = await attach('memo.md', 'The board froze hiring.');
    engine = startTestEngine(h.core);

    expect((await debateReaching(h.core, id, { ms: 20_000 }))?.status).toBe('completed');
    const turns = (await h.core.db.execute('select content from debate_turns where debate_id = ?', [id])) as {
      content: string;
    }[];
    expect(turns).toHaveLength(3);
    for (const turn of turns) expect(turn.content).toContain('I have read the attached "budget.txt".');

    const listed = await eventually(
      async () => {
        const res = await h.request<AttachmentList>('GET', `/api/debates/${id}/attachments`, {
          cookie: owner.cookie,
        });
        return AttachmentList.parse(res.json).attachments.find((a) => a.id === late.id);
      },
      (attachment) => attachment?.status === 'ready',
    );
    expect(listed?.textLength).toBe('The board froze hiring.'.length);
  }, 40_000);

  it('extracts each pending attachment once when passes of several nodes run at the same moment', async () => {
    await engine?.stop();
    engine = null;
    const debateId = await insertStoredDebate(h.core, { ownerId: owner.session.user.id, question: 'Q?' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const stored = await h.core.attachments.upload(owner.session.user.id, debateId, {
        filename: `note-${i}.txt`,
        bytes: new TextEncoder().encode(`note ${i}`),
      });
      ids.push(stored.id);
    }
    const blobs = databaseBlobStore(h.core.db);
    const passes = await Promise.all(
      [1, 2, 3].map(() => extractPendingAttachments(h.core.db, blobs, { clock: h.core.clock })),
    );
    expect(passes.reduce((sum, handled) => sum + handled, 0)).toBe(5);
    const rows = (await h.core.db.execute(
      'select id, status, text from attachments where debate_id = ? order by filename',
      [debateId],
    )) as { id: string; status: string; text: string }[];
    expect(rows.map((row) => [row.status, row.text])).toEqual(ids.map((_, i) => ['ready', `note ${i}`]));
  });

  it('stores a text with NUL bytes without them, and leaves an attachment whose bytes cannot be read for a later try without stalling the others', async () => {
    await engine?.stop();
    engine = null;
    const debateId = await insertStoredDebate(h.core, { ownerId: owner.session.user.id, question: 'Q?' });
    const upload = (name: string, text: string) =>
      h.core.attachments.upload(owner.session.user.id, debateId, {
        filename: name,
        bytes: new TextEncoder().encode(text),
      });
    const withNul = await upload('a-nul.txt', 'a\u0000b');
    const unreadable = await upload('b-unreadable.txt', 'never read');
    const after = await upload('c-after.txt', 'read after the broken one');
    const real = databaseBlobStore(h.core.db);
    // A store whose read of one attachment breaks (a disk or database fault), as a failing read would.
    const blobs = {
      ...real,
      get: async (id: string) => {
        if (id === unreadable.id) throw new Error('read failed');
        return real.get(id);
      },
    };
    const rows = async () =>
      (
        (await h.core.db.execute(
          'select id, status, text from attachments where debate_id = ? order by filename',
          [debateId],
        )) as { id: string; status: string; text: string | null }[]
      ).map((row) => [row.id, row.status, row.text]);
    expect(await extractPendingAttachments(h.core.db, blobs, { clock: h.core.clock })).toBe(3);
    // The unreadable one is left claimed, to be tried again once its claim runs out (and failed after a
    // few tries: extraction.integration.test.ts in core); the ones after it were not held up.
    expect(await rows()).toEqual([
      [withNul.id, 'ready', 'ab'],
      [unreadable.id, 'pending', null],
      [after.id, 'ready', 'read after the broken one'],
    ]);
    expect(await extractPendingAttachments(h.core.db, blobs, { clock: h.core.clock })).toBe(0);
  });
});
