import { fileURLToPath } from 'node:url';
import { loadUws } from '../http/uws/load-uws.ts';
import { prepareNewerLibc } from './newer-libc.ts';

const CACHE_DIR = fileURLToPath(new URL('../../../../node_modules/.cache/verdict/libc6', import.meta.url));

/**
 * How to start this node so that it loads uWebSockets.js: the binary itself where the system's C library
 * is recent enough, else through the loader of a newer one (newer-libc.ts; prepared once, then cached).
 * The loader runs node in the same process: descriptors given to it (an IPC channel) stay as they are.
 */
export function nodeCommandForUws(node = process.execPath): { command: string; args: string[] } {
  if (loadUws().uws) return { command: node, args: [] };
  const libc = prepareNewerLibc(CACHE_DIR);
  return { command: libc.loader, args: ['--library-path', libc.libraryPath, node] };
}
