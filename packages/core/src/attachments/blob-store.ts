import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { AttachmentTables } from './tables.ts';

/**
 * Where attachment bytes live. `put` runs inside the transaction that creates the attachment record, so a
 * record never exists without its bytes; the bytes go with the record when it (or its debate) is deleted.
 */
export type BlobStore = {
  put: (em: EntityManager, attachmentId: string, bytes: Uint8Array) => Promise<void>;
  /** Stores the bytes of `fromId` again under `toId`, in `em`'s transaction (a copy onto another debate). */
  copy: (em: EntityManager, fromId: string, toId: string) => Promise<void>;
  /** The exact stored bytes, or null when there are none (a URL attachment, or a deleted one). */
  get: (attachmentId: string) => Promise<Uint8Array | null>;
};

/**
 * The default store: a bytea row per attachment in the service's database (PostgreSQL, or PGlite when
 * embedded). Every API process and engine node reads the same bytes with no shared disk, and the bytes
 * follow the record's transaction and cascade.
 */
export function databaseBlobStore(db: Database): BlobStore {
  const k = (em: EntityManager = db.em()) => query<AttachmentTables>(em);
  return {
    put: async (em, attachmentId, bytes) => {
      await k(em)
        .insertInto('attachment_blobs')
        .values({ attachment_id: attachmentId, bytes: Buffer.from(bytes) })
        .execute();
    },
    copy: async (em, fromId, toId) => {
      await k(em)
        .insertInto('attachment_blobs')
        .columns(['attachment_id', 'bytes'])
        .expression((eb) =>
          eb
            .selectFrom('attachment_blobs')
            .select([eb.val(toId).as('attachment_id'), 'bytes'])
            .where('attachment_id', '=', fromId),
        )
        .execute();
    },
    get: async (attachmentId) => {
      const row = await k()
        .selectFrom('attachment_blobs')
        .select('bytes')
        .where('attachment_id', '=', attachmentId)
        .executeTakeFirst();
      return row ? new Uint8Array(row.bytes as Uint8Array) : null;
    },
  };
}

/** How old a file without a record must be before the sweep removes it: far longer than any transaction. */
const ORPHAN_GRACE_MS = 60 * 60_000;
/** How often the sweep runs while the store is open. */
const SWEEP_EVERY_MS = 10 * 60_000;
/** Ids asked about in one query by the sweep. */
const SWEEP_BATCH = 500;

export type FilesystemBlobStore = BlobStore & {
  /** Removes the files no attachment record names (older than `graceMs`); returns how many went. */
  sweep: (graceMs?: number) => Promise<number>;
  /** Stops the periodic sweep. */
  close: () => void;
};

/**
 * Embedded mode's store: one file per attachment under `folder` (DATA_DIR/attachments/<2 hex>/<id>), written
 * to a temporary name and renamed, so a reader never sees half a file. The database keeps records only. A
 * file is written inside the record's transaction, before it commits: a transaction that then rolls back,
 * or a record deleted later (with its debate, or on its own), leaves a file no record names, which the
 * sweep removes once it is older than an hour (every ten minutes, and ten seconds after opening, so a
 * restart after a crash tidies up too). Only one process uses a DATA_DIR (its lock), so nothing else
 * writes there.
 */
export function filesystemBlobStore(
  folder: string,
  db: Database,
  onError: (error: unknown) => void,
): FilesystemBlobStore {
  const pathOf = (id: string) => join(folder, id.slice(0, 2), id);
  const write = async (id: string, bytes: Uint8Array) => {
    const path = pathOf(id);
    await mkdir(join(folder, id.slice(0, 2)), { recursive: true });
    const draft = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(draft, bytes);
    await rename(draft, path);
  };

  const sweep = async (graceMs = ORPHAN_GRACE_MS) => {
    const before = Date.now() - graceMs;
    const candidates = await filesOlderThan(folder, before);
    let removed = 0;
    for (let i = 0; i < candidates.length; i += SWEEP_BATCH) {
      const batch = candidates.slice(i, i + SWEEP_BATCH);
      const known = await recordedIds(
        db,
        batch.map((c) => c.id),
      );
      for (const candidate of batch) {
        if (known.has(candidate.id) && !candidate.path.endsWith('.tmp')) continue;
        await rm(candidate.path, { force: true });
        removed++;
      }
    }
    return removed;
  };

  const run = () => {
    sweep().catch(onError);
  };
  const first = setTimeout(run, 10_000);
  const every = setInterval(run, SWEEP_EVERY_MS);
  first.unref();
  every.unref();

  return {
    put: (_em, attachmentId, bytes) => write(attachmentId, bytes),
    copy: async (_em, fromId, toId) => {
      await mkdir(join(folder, toId.slice(0, 2)), { recursive: true });
      await copyFile(pathOf(fromId), pathOf(toId));
    },
    get: async (attachmentId) => {
      try {
        return new Uint8Array(await readFile(pathOf(attachmentId)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    sweep,
    close: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}

/** The files under `folder`'s shards last written before `before` (ms), each with the id its name starts with. */
async function filesOlderThan(folder: string, before: number) {
  const found: { id: string; path: string }[] = [];
  const shards = await readdir(folder).catch(() => [] as string[]);
  for (const shard of shards) {
    for (const name of await readdir(join(folder, shard)).catch(() => [] as string[])) {
      const path = join(folder, shard, name);
      const info = await stat(path).catch(() => null);
      if (info && info.mtimeMs < before) found.push({ id: name.split('.')[0] ?? name, path });
    }
  }
  return found;
}

/** Which of `ids` name an attachment record. */
async function recordedIds(db: Database, ids: string[]): Promise<Set<string>> {
  // Drafts and names that are no uuid never match a record.
  const uuids = ids
    .filter((id) => /^[0-9a-f-]{36}$/.test(id))
    .concat(['00000000-0000-0000-0000-000000000000']);
  const rows = await query<AttachmentTables>(db.em())
    .selectFrom('attachments')
    .select('id')
    .where('id', 'in', uuids)
    .execute();
  return new Set(rows.map((row) => row.id));
}
