import { readFile } from 'node:fs/promises';

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

export type ProfileSummary = {
  totalMs: number;
  /** Self time by function, largest first. */
  functions: { name: string; where: string; ms: number; share: number }[];
  /** Self time by where the code lives (npm package, workspace package, node internals, GC, idle). */
  categories: { name: string; ms: number; share: number }[];
  /** Inclusive time of frames whose function or location matches each probe. */
  inclusive: { name: string; ms: number; share: number }[];
  /** For native frames named in `callersOf`: which package's JavaScript called them, by self time. */
  callers: { native: string; caller: string; ms: number; share: number }[];
};

export type SummarizeOptions = {
  /** Frames (substring of function name or URL) whose inclusive time is worth knowing. */
  probes?: Record<string, (frame: Node['callFrame']) => boolean>;
  /** Only samples taken in this window, in microseconds of CLOCK_MONOTONIC (process.hrtime). */
  window?: { startUs: number; endUs: number };
  /** Native functions (e.g. writeBuffer) to attribute to their nearest JavaScript caller's package. */
  callersOf?: string[];
  top?: number;
};

export function categoryOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(program)') return 'native (program)';
    return `native ${functionName || '(anonymous)'}`;
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  for (const workspace of ['apps/api', 'packages/core', 'packages/contracts', 'bench']) {
    if (url.includes(`/${workspace}/`)) return workspace;
  }
  return url;
}

/** Self time, inclusive time of probes and callers of native hot spots, from a V8 .cpuprofile. */
export async function summarizeProfile(
  path: string,
  options: SummarizeOptions = {},
): Promise<ProfileSummary> {
  const { probes = {}, window, callersOf = [], top = 25 } = options;
  const profile = JSON.parse(await readFile(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (window && (t < window.startUs || t > window.endUs)) continue;
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  }
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

  const fn = new Map<string, { name: string; where: string; us: number }>();
  const cat = new Map<string, number>();
  const incl = new Map<string, number>();
  const callers = new Map<string, { native: string; caller: string; us: number }>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${shorten(url)}:${lineNumber + 1}` : '';
    const key = `${functionName}@${where}`;
    const entry = fn.get(key) ?? { name: functionName || '(anonymous)', where, us: 0 };
    entry.us += us;
    fn.set(key, entry);
    const c = categoryOf(url, functionName);
    cat.set(c, (cat.get(c) ?? 0) + us);
    // Inclusive: charge each probe once per sample if any ancestor frame matches.
    const matched = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      for (const [name, test] of Object.entries(probes)) if (test(frame)) matched.add(name);
    }
    for (const name of matched) incl.set(name, (incl.get(name) ?? 0) + us);
    if (callersOf.includes(functionName)) {
      let cur = parent.get(id);
      const path: string[] = [];
      while (cur !== undefined && path.length < 3) {
        const frame = byId.get(cur)!.callFrame;
        if (frame.url && !frame.url.startsWith('node:'))
          path.push(`${categoryOf(frame.url, '')} ${frame.functionName || '(anonymous)'}`);
        cur = parent.get(cur);
      }
      const caller = path.join(' ← ') || '(no JavaScript caller)';
      const k = `${functionName}|${caller}`;
      const entry = callers.get(k) ?? { native: functionName, caller, us: 0 };
      entry.us += us;
      callers.set(k, entry);
    }
  }
  const share = (us: number) => us / totalUs;
  return {
    totalMs: totalUs / 1000,
    functions: [...fn.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, ms: f.us / 1000, share: share(f.us) })),
    categories: [...cat]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ name, ms: us / 1000, share: share(us) })),
    inclusive: [...incl]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ name, ms: us / 1000, share: share(us) })),
    callers: [...callers.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((c) => ({ native: c.native, caller: c.caller, ms: c.us / 1000, share: share(c.us) })),
  };
}

function shorten(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  const main = url.indexOf('/apps/') >= 0 ? url.indexOf('/apps/') : url.indexOf('/packages/');
  return main >= 0 ? url.slice(main + 1) : url.replace(/^file:\/\//, '');
}
