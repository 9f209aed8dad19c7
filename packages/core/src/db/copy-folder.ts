import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Copies the tree under `from` to `to` (which must not exist) with many file copies in flight. A database
 * folder is about a thousand small files, and `fs.cp` copies one at a time: 3–4× slower here.
 */
export async function copyFolder(from: string, to: string, inFlight = 16): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const path = (e: (typeof entries)[number]) => relative(from, join(e.parentPath, e.name));
  await mkdir(to);
  // Sorted by path, every folder comes after its parent.
  for (const dir of entries
    .filter((e) => e.isDirectory())
    .map(path)
    .sort())
    await mkdir(join(to, dir));
  const files = entries.filter((e) => e.isFile()).map(path);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      await copyFile(join(from, file), join(to, file));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}
