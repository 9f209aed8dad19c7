import { readFileSync } from 'node:fs';

/**
 * Resident set size of a process in bytes (VmRSS of /proc/<pid>/status); null once it is gone. Read from
 * outside, so it works alike for the bench's own servers and for the production engine process (which
 * answers no IPC), costs the process nothing and triggers no gc().
 */
export function processRssBytes(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    return kib === undefined ? null : Number(kib) * 1024;
  } catch {
    return null;
  }
}

/** V8 maps its heap a page at a time: 256 KiB anonymous read-write mappings. */
const V8_PAGE_KIB = 256;

/**
 * A process's resident memory in kibibytes split by where it lies (/proc/<pid>/smaps): in mappings the size
 * of a V8 heap page (the JavaScript heap, counted whether or not V8 still counts the page as its heap's —
 * a page V8 keeps in its pool for reuse is resident but not in heapTotal), in the C heap and the threads'
 * malloc arenas (anonymous mappings of other sizes), and in files (the binary, libraries). Null once gone.
 */
export function residentBySource(
  pid: number,
): { v8PagesKib: number; otherAnonKib: number; filesKib: number } | null {
  let smaps: string;
  try {
    smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return null;
  }
  const split = { v8PagesKib: 0, otherAnonKib: 0, filesKib: 0 };
  let source: keyof typeof split = 'otherAnonKib';
  for (const line of smaps.split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const sizeKib =
        (Number.parseInt(mapping[2] ?? '0', 16) - Number.parseInt(mapping[1] ?? '0', 16)) / 1024;
      const path = mapping[4] ?? '';
      if (path.startsWith('/')) source = 'filesKib';
      else if (sizeKib === V8_PAGE_KIB && mapping[3] === 'rw-p' && path === '') source = 'v8PagesKib';
      else source = 'otherAnonKib';
    } else if (line.startsWith('Rss:')) split[source] += Number(line.split(/\s+/)[1] ?? 0);
  }
  return split;
}
