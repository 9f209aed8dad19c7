import type { BlobStore, Mailer } from '@verdict/core';
import { describe, expect, it } from 'vitest';
import { PermanentFailure, StorageUnavailable } from '../store/errors.ts';
import { BlobsUnavailable, MailUnavailable, passFailure, taggedBlobs, taggedMailer } from './errors.ts';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNREFUSED' });

describe("a worker's failures", () => {
  it('are the mail server’s when the mailer throws, and storage’s otherwise', async () => {
    const mailer: Mailer = { send: () => Promise.reject(refused), close: () => {} };
    const failed = await taggedMailer(mailer)
      .send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' } as never)
      .catch((error: unknown) => error);
    const classify = passFailure(MailUnavailable);
    expect(classify(failed)).toBeInstanceOf(MailUnavailable);
    expect((classify(failed) as MailUnavailable).cause).toBe(refused);
    // The same refused connection from the database is a storage blip; a refused statement is a defect.
    expect(classify(refused)).toBeInstanceOf(StorageUnavailable);
    expect(classify(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeInstanceOf(
      PermanentFailure,
    );
  });

  it('are the blob store’s when reading bytes fails, and its writes are left as they were', async () => {
    const writes: string[] = [];
    const store: BlobStore = {
      put: async (_em, id) => void writes.push(id),
      copy: async () => {},
      get: () => Promise.reject(new Error('EIO: i/o error, read')),
    };
    const tagged = taggedBlobs(store);
    const failed = await tagged.get('a1').catch((error: unknown) => error);
    expect(passFailure(BlobsUnavailable)(failed)).toBeInstanceOf(BlobsUnavailable);
    await tagged.put({} as never, 'a2', new Uint8Array());
    expect(writes).toEqual(['a2']);
  });
});
