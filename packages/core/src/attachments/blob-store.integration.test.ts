import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, insertStoredDebate, type TestCore } from '../testing/index.ts';
import { type FilesystemBlobStore, filesystemBlobStore } from './blob-store.ts';

/** Embedded mode's file store, over a real database for its records (the sweep asks which ids exist). */
describe('the filesystem blob store', () => {
  let test: TestCore;
  let folder: string;
  let store: FilesystemBlobStore;
  let ownerId: string;
  let debateId: string;

  const record = async (id = randomUUID()) => {
    await test.core.db.execute(
      `insert into attachments (id, debate_id, owner_id, kind, filename, content_type, size)
       values (?, ?, ?, 'file', 'notes.txt', 'text/plain', 3)`,
      [id, debateId, ownerId],
    );
    return id;
  };
  const files = async () =>
    (await Promise.all((await readdir(folder)).map((shard) => readdir(join(folder, shard))))).flat().sort();
  /** Makes a file look `hours` old, as the sweep judges age by modification time. */
  const age = async (id: string, hours: number) => {
    const then = new Date(Date.now() - hours * 3_600_000);
    await utimes(join(folder, id.slice(0, 2), id), then, then);
  };

  beforeAll(async () => {
    test = await createTestCore();
    folder = await mkdtemp(join(tmpdir(), 'verdict-blobs-'));
    store = filesystemBlobStore(folder, test.core.db, (error) => {
      throw error;
    });
    ownerId = (
      await test.core.accounts.createUser({
        email: `${randomUUID()}@example.com`,
        name: 'B',
        password: 'a long enough password',
      })
    ).id;
    debateId = await insertStoredDebate({ db: test.core.db }, { ownerId, question: 'Blobs?' });
  }, 60_000);
  afterAll(async () => {
    store?.close();
    await rm(folder, { recursive: true, force: true });
    await test?.cleanup();
  });

  it('gives back exactly the bytes put, copies them, and answers null for what it never stored', async () => {
    const id = await record();
    const bytes = new Uint8Array([0, 1, 2, 255, 254, 10, 13]);
    await test.core.db.em().transactional((em) => store.put(em, id, bytes));
    expect(await store.get(id)).toEqual(bytes);
    const copy = await record();
    await test.core.db.em().transactional((em) => store.copy(em, id, copy));
    expect(await store.get(copy)).toEqual(bytes);
    expect(await store.get(randomUUID())).toBeNull();
  });

  it('sweeps the files no record names once they are old: rolled back, deleted; keeps the rest', async () => {
    const kept = await record();
    await test.core.db.em().transactional((em) => store.put(em, kept, new Uint8Array([1])));
    const rolledBack = randomUUID();
    await expect(
      test.core.db.em().transactional(async (em) => {
        await store.put(em, rolledBack, new Uint8Array([2]));
        throw new Error('the record could not be written');
      }),
    ).rejects.toThrow('could not be written');
    const deleted = await record();
    await test.core.db.em().transactional((em) => store.put(em, deleted, new Uint8Array([3])));
    await test.core.db.execute('delete from attachments where id = ?', [deleted]);
    const fresh = randomUUID();
    await test.core.db.em().transactional((em) => store.put(em, fresh, new Uint8Array([4])));
    for (const id of [kept, rolledBack, deleted]) await age(id, 2);

    expect(await store.sweep()).toBe(2);
    const left = await files();
    expect(left).toContain(kept);
    expect(left).toContain(fresh); // no record, but young: its transaction may still be open
    expect(left).not.toContain(rolledBack);
    expect(left).not.toContain(deleted);
  });
});
