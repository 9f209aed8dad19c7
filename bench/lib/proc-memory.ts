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
