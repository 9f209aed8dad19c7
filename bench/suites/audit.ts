import { type RunningApi, startApiServer } from '../lib/api-servers.ts';
import { processRssBytes } from '../lib/proc-memory.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const ENTRIES = 100_000;
const MIB = 1024 * 1024;
/** How often the API's resident memory is read while it streams. */
const SAMPLE_MS = 20;

type Streamed = { seconds: number; bytes: number; lines: number; peakGrowthBytes: number };

/**
 * Streams the whole export of `ENTRIES` audit entries from the API and watches its resident memory from
 * outside (/proc): the export must hold a page at a time, so its growth is a small fraction of the file
 * however long the trail (what the target checks), and the time is what a download of the year takes.
 */
async function streamExport(api: RunningApi, format: 'ndjson' | 'csv'): Promise<Streamed> {
  const before = processRssBytes(api.pid) ?? 0;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, processRssBytes(api.pid) ?? 0);
  }, SAMPLE_MS);
  const started = performance.now();
  try {
    const res = await fetch(`${api.baseUrl}/api/audit/export?format=${format}`, { headers: api.authHeaders });
    if (res.status !== 200 || !res.body)
      throw new Error(`export answered ${res.status}: ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    return { seconds: (performance.now() - started) / 1000, bytes, lines, peakGrowthBytes: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

const rows = (format: string, size: string, s: Streamed): BenchResult[] => {
  const detail = `GET /api/audit/export?format=${format} of an account's ${s.lines.toLocaleString()} lines (${(s.bytes / MIB).toFixed(1)} MiB), distributed; API RSS read every ${SAMPLE_MS} ms from /proc`;
  return [
    {
      name: `audit.export_${format}_${size}.seconds`,
      value: round(s.seconds, 2),
      unit: 's',
      better: 'lower',
      detail,
    },
    {
      name: `audit.export_${format}_${size}.mib_per_s`,
      value: round(s.bytes / MIB / s.seconds, 1),
      unit: 'MiB/s',
      better: 'higher',
      detail,
    },
    {
      name: `audit.export_${format}_${size}.rss_growth_mib`,
      value: round(s.peakGrowthBytes / MIB, 1),
      unit: 'MiB',
      better: 'lower',
      detail,
    },
  ];
};

/** One API server whose bench account has `entries` more audit entries: both exports, streamed. */
async function exportsOf(settings: SuiteContext['settings'], log: SuiteContext['log'], entries: number) {
  log(`seeding ${entries.toLocaleString()} audit entries`);
  const api = await startApiServer({
    mode: 'postgres',
    databaseUrl: settings.databaseUrl,
    env: { BENCH_AUDIT_ENTRIES: String(entries) },
  });
  try {
    // One small read first, so the figures start from a warm process.
    await fetch(`${api.baseUrl}/api/audit?limit=1`, { headers: api.authHeaders });
    const ndjson = await streamExport(api, 'ndjson');
    const csv = await streamExport(api, 'csv');
    log(
      `${entries}: ndjson ${ndjson.seconds.toFixed(2)} s, +${(ndjson.peakGrowthBytes / MIB).toFixed(1)} MiB; csv ${csv.seconds.toFixed(2)} s, +${(csv.peakGrowthBytes / MIB).toFixed(1)} MiB`,
    );
    // Every entry once (the account's own sign-up entries too, and each export's own entry); CSV adds its
    // header row, and the NDJSON export's entry.
    if (ndjson.lines < entries || csv.lines !== ndjson.lines + 2) {
      throw new Error(`the exports are incomplete: ${ndjson.lines} NDJSON lines, ${csv.lines} CSV rows`);
    }
    return { ndjson, csv };
  } finally {
    await api.stop();
  }
}

/**
 * The export of ENTRIES entries and of three times as many, each on a server of its own: the API's memory
 * while it streams must not grow with the trail (the target: the longer export's growth over the
 * shorter's), and the time is what downloading a busy account's year takes.
 */
async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const one = await exportsOf(settings, log, ENTRIES);
  const three = await exportsOf(settings, log, 3 * ENTRIES);
  const ratio = (format: 'ndjson' | 'csv'): BenchResult => ({
    name: `audit.export_${format}.rss_growth_3x_over_1x`,
    value: round(three[format].peakGrowthBytes / one[format].peakGrowthBytes, 2),
    unit: 'x',
    better: 'lower',
    detail: `the API's peak RSS growth exporting ${(3 * ENTRIES).toLocaleString()} entries over exporting ${ENTRIES.toLocaleString()}: ${(three[format].peakGrowthBytes / MIB).toFixed(1)} / ${(one[format].peakGrowthBytes / MIB).toFixed(1)} MiB (3 if it held the file)`,
  });
  return [
    ...rows('ndjson', '1x', one.ndjson),
    ...rows('csv', '1x', one.csv),
    ...rows('ndjson', '3x', three.ndjson),
    ...rows('csv', '3x', three.csv),
    ratio('ndjson'),
    ratio('csv'),
  ];
}

export const suite: Suite = {
  description: `the audit export of ${ENTRIES.toLocaleString()} entries and of three times as many, streamed: time and the API's memory (opt-in: npm run bench -- audit)`,
  optIn: true,
  run,
};
