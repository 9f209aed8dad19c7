import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFolder } from './copy-folder.ts';

describe('copyFolder', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'verdict-copy-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('copies every file and folder, empty folders and deep ones too', async () => {
    const from = join(root, 'from');
    await mkdir(join(from, 'base', '1', 'deep'), { recursive: true });
    await mkdir(join(from, 'pg_tblspc'));
    for (let i = 0; i < 40; i++) await writeFile(join(from, 'base', '1', `${i}`), `file ${i}`);
    await writeFile(join(from, 'base', '1', 'deep', 'x'), Buffer.alloc(100_000, 7));
    await writeFile(join(from, 'PG_VERSION'), '17\n');

    await copyFolder(from, join(root, 'to'));

    const list = async (dir: string) => (await readdir(dir, { recursive: true })).sort();
    expect(await list(join(root, 'to'))).toEqual(await list(from));
    expect(await readFile(join(root, 'to', 'base', '1', '39'), 'utf8')).toBe('file 39');
    expect(await readFile(join(root, 'to', 'base', '1', 'deep', 'x'))).toEqual(Buffer.alloc(100_000, 7));
  });

  it('refuses a target that exists', async () => {
    await mkdir(join(root, 'from'));
    await mkdir(join(root, 'to'));
    await expect(copyFolder(join(root, 'from'), join(root, 'to'))).rejects.toThrow(/EEXIST/);
  });
});
