import { createRequire } from 'node:module';
import { isRecentEnough, MINIMUM_GLIBC } from '../../startup/newer-libc.ts';

export type Uws = typeof import('@btc-vision/uwebsockets.js');

/** uWebSockets.js, or in one line why this process cannot load it. */
export type UwsLoad = { uws: Uws; reason?: undefined } | { uws?: undefined; reason: string };

/**
 * The largest request head uWebSockets.js accepts. Its default (4 KiB) is a quarter of Node's, so a
 * request Node's http serves (a long cookie, a big Authorization header) would be refused with 431; read
 * by the library when it loads.
 */
const MAX_HEADERS_SIZE = '16384';

let loaded: UwsLoad | undefined;

/** Loads uWebSockets.js once; never throws. */
export function loadUws(): UwsLoad {
  if (loaded) return loaded;
  process.env.UWS_HTTP_MAX_HEADERS_SIZE ??= MAX_HEADERS_SIZE;
  try {
    loaded = { uws: createRequire(import.meta.url)('@btc-vision/uwebsockets.js') as Uws };
  } catch (err) {
    loaded = { reason: whyNot(err) };
  }
  return loaded;
}

/** The binaries' own message names every platform; this names the one thing that is usually missing. */
function whyNot(err: unknown): string {
  const glibc = glibcVersion();
  if (glibc && !isRecentEnough(glibc)) {
    const needed = MINIMUM_GLIBC.join('.');
    return `its binary needs glibc ≥ ${needed} and this system has ${glibc} (STREAMS=uws runs it through a newer C library)`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `its binary does not load here: ${message.split('\n')[0]}`;
}

function glibcVersion(): string | null {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
    ?.header;
  return header?.glibcVersionRuntime ?? null;
}
