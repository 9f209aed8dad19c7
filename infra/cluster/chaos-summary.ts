import type { ChaosReport } from './chaos.ts';

/**
 * A chaos run's report as the tables BENCHMARKS.md keeps: the counts, then per fault kind how often it hit
 * and the median and longest recovery (ms from the fault's end until a debate created then completed); on
 * the NATS cluster, per NATS fault kind the median and longest time to progress while it held (ms from its
 * start until a debate created then completed).
 */
export function chaosSummary(report: ChaosReport): string {
  const kinds = [...new Set(report.faults.map((fault) => fault.kind))].sort();
  const row = (kind: string, of: (fault: ChaosReport['faults'][number]) => number | null | undefined) => {
    const times = report.faults
      .filter((fault) => fault.kind === kind)
      .map((fault) => of(fault) ?? Number.POSITIVE_INFINITY)
      .sort((a, b) => a - b);
    const median = times[Math.floor((times.length - 1) / 2)] ?? 0;
    const max = times.at(-1) ?? 0;
    return `| ${kind} | ${times.length} | ${show(median)} | ${show(max)} |`;
  };
  const rows = kinds.map((kind) => row(kind, (fault) => fault.recoveryMs));
  const natsKinds = kinds.filter((kind) =>
    report.faults.some((fault) => fault.kind === kind && fault.progressMs !== undefined),
  );
  const progress =
    natsKinds.length === 0
      ? []
      : [
          '',
          '| NATS cluster fault | count | median ms to progress while it held | max ms |',
          '|---|---:|---:|---:|',
          ...natsKinds.map((kind) => row(kind, (fault) => fault.progressMs)),
        ];
  return [
    '| figure | value |',
    '|---|---:|',
    `| seconds | ${report.seconds} |`,
    `| faults injected | ${report.faults.length} |`,
    `| debates accepted | ${report.accepted} |`,
    `| creates not accepted (503, or cut off) | ${report.notAccepted} |`,
    `| of those cut off, debates made all the same | ${report.madeUnanswered} |`,
    `| streams followed | ${report.streams} |`,
    `| webhook deliveries received | ${report.webhookDeliveries} |`,
    `| scheduled runs fired | ${report.scheduledRuns} |`,
    `| provider requests | ${report.providerRequests} |`,
    `| writes refused by the epoch fence | ${report.fencedWrites} |`,
    `| invariant violations | ${report.violations.length} |`,
    '',
    '| fault | count | median recovery ms | max ms |',
    '|---|---:|---:|---:|',
    ...rows,
    ...progress,
  ].join('\n');
}

const show = (ms: number) => (Number.isFinite(ms) ? ms.toLocaleString('en-US') : 'never');
