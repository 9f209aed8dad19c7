import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A newer GNU C library for this process only, from Debian's archive: uWebSockets.js's Linux binaries need
 * glibc ≥ 2.38, and Debian 12 has 2.36. The `libc6` package of Debian 13 is downloaded by apt with its state
 * redirected into `cacheDir` (nothing under /etc/apt or /var/lib/apt is read for packages or written, no
 * lock taken, nothing installed: apt still checks the archive's signatures with the machine's keyring),
 * unpacked with `dpkg-deb -x`, and kept there for every later start. A process uses it by being started
 * through that library's dynamic loader (`loaderCommand`).
 */

/** Debian 13's suite: named, not `stable`, so the library does not change under a cache when Debian moves on. */
const SUITE = 'trixie';
/** The oldest version that has the symbols uWebSockets.js needs (`__isoc23_strtol` and two more). */
export const MINIMUM_GLIBC = [2, 38] as const;
/** Where Debian 12's own libraries are: the ones the loader falls back to for everything but the C library. */
const SYSTEM_LIBRARIES = '/usr/lib/x86_64-linux-gnu';
const ARCHIVE_FALLBACK = 'http://deb.debian.org/debian';

export type NewerLibc = {
  /** The dynamic loader to start `node` through. */
  loader: string;
  /** `--library-path`: the newer C library first, then the system's for everything else. */
  libraryPath: string;
  /** The package's version, e.g. `2.41-12+deb13u5`. */
  version: string;
};

/** What `cacheDir` holds once prepared: the unpacked package and its version. */
function preparedIn(dir: string): NewerLibc | null {
  const versionFile = join(dir, 'version');
  const libraries = join(dir, 'root/usr/lib/x86_64-linux-gnu');
  const loader = join(libraries, 'ld-linux-x86-64.so.2');
  if (!existsSync(versionFile) || !existsSync(loader)) return null;
  const version = readFileSync(versionFile, 'utf8').trim();
  if (!isRecentEnough(version)) return null;
  return { loader, libraryPath: `${libraries}:${SYSTEM_LIBRARIES}`, version };
}

/** `2.41-12+deb13u5` → true: at least MINIMUM_GLIBC. */
export function isRecentEnough(packageVersion: string): boolean {
  const match = /^(\d+)\.(\d+)/.exec(packageVersion);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > MINIMUM_GLIBC[0] || (major === MINIMUM_GLIBC[0] && minor >= MINIMUM_GLIBC[1]);
}

/**
 * The archive this machine's apt already uses (its deb822 `URIs:` for the main archive), so a mirror an
 * operator configured is used here too; Debian's own address where none is found.
 */
export function archiveOf(sources: string): string {
  for (const stanza of sources.split(/\n\s*\n/)) {
    const uri = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
    const suites = /^Suites:\s*(.+)$/m.exec(stanza)?.[1] ?? '';
    if (uri && !/-security\b/.test(suites) && !/security/.test(uri)) return uri;
  }
  return ARCHIVE_FALLBACK;
}

function configuredArchive(): string {
  const file = '/etc/apt/sources.list.d/debian.sources';
  return existsSync(file) ? archiveOf(readFileSync(file, 'utf8')) : ARCHIVE_FALLBACK;
}

/**
 * The newer C library in `cacheDir`, downloading and unpacking it the first time (the suite's package
 * lists and the 3 MB package, a few seconds). Concurrent first starts each prepare a folder of their own and the first rename wins, so a
 * half-written cache is never used. Throws with apt's or dpkg's own words when it cannot be had.
 */
export function prepareNewerLibc(cacheDir: string): NewerLibc {
  const ready = preparedIn(cacheDir);
  if (ready) return ready;
  if (process.arch !== 'x64' || !existsSync('/usr/bin/apt-get') || !existsSync('/usr/bin/dpkg-deb')) {
    throw new Error('a newer C library can be prepared only on x86-64 Debian (apt-get and dpkg-deb)');
  }
  // A folder of this process's own next to the cache (processes in containers sharing node_modules may
  // all be PID 1), renamed into place once whole.
  mkdirSync(dirname(cacheDir), { recursive: true });
  const work = mkdtempSync(`${cacheDir}.tmp-`);
  mkdirSync(join(work, 'apt/lists/partial'), { recursive: true });
  mkdirSync(join(work, 'apt/cache/archives/partial'), { recursive: true });
  try {
    writeFileSync(join(work, 'apt/sources.list'), `deb ${configuredArchive()} ${SUITE} main\n`);
    const apt = [
      `-o=Dir::Etc::sourcelist=${join(work, 'apt/sources.list')}`,
      '-o=Dir::Etc::sourceparts=-',
      `-o=Dir::State::Lists=${join(work, 'apt/lists')}`,
      `-o=Dir::Cache=${join(work, 'apt/cache')}`,
      '-o=Debug::NoLocking=1',
      '-qq',
      // As root apt drops to the `_apt` user to download, which may not write this folder.
      ...(process.getuid?.() === 0 ? ['-o=APT::Sandbox::User=root'] : []),
    ];
    const run = (command: string, args: string[]) =>
      execFileSync(command, args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    run('apt-get', [...apt, 'update']);
    run('apt-get', [...apt, 'download', 'libc6']);
    const deb = readdirSync(work).find((name) => /^libc6_.*\.deb$/.test(name));
    if (!deb) throw new Error('apt-get download left no libc6 package');
    const version = run('dpkg-deb', ['-f', deb, 'Version']).toString().trim();
    if (!isRecentEnough(version))
      throw new Error(`Debian's ${SUITE} has libc6 ${version}, older than needed`);
    run('dpkg-deb', ['-x', deb, join(work, 'root')]);
    rmSync(join(work, 'apt'), { recursive: true, force: true });
    rmSync(join(work, deb), { force: true });
    writeFileSync(join(work, 'version'), `${version}\n`);
    // A cache left by an older version (or a crash) is replaced; a usable one another process made is kept.
    if (existsSync(cacheDir) && !preparedIn(cacheDir)) rmSync(cacheDir, { recursive: true, force: true });
    try {
      renameSync(work, cacheDir);
    } catch (err) {
      // Another process prepared it first: theirs is used, ours dropped. Anything else is a failure.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    }
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`preparing a newer C library failed: ${stderr || (err as Error).message}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const prepared = preparedIn(cacheDir);
  if (!prepared) throw new Error(`preparing a newer C library left nothing usable in ${cacheDir}`);
  return prepared;
}
