import { processCpuSeconds } from './cpu.ts';
import { type LoadOptions, type LoadResult, measure } from './load.ts';
import { serviceCpuSeconds } from './service-cpu.ts';

export type CpuSplit = {
  wallS: number;
  /** CPU seconds over the measured run, by party. */
  loadGenerator: number;
  server: number;
  postgres: number;
};

/**
 * `measure`, plus the CPU each party spent during the measured part (not the warm-up): this process
 * (the load generator), the server process `serverPid`, and the benches' PostgreSQL (service-cpu.ts: its
 * postmaster and backends, not another PostgreSQL on the machine).
 * CPU per request is steadier than requests per second on a shared 2-core machine.
 */
export async function measureWithCpu(
  options: LoadOptions,
  serverPid: number,
): Promise<{ load: LoadResult; cpu: CpuSplit; windowUs: { startUs: number; endUs: number } }> {
  if (options.warmupS > 0) await measure({ ...options, durationS: options.warmupS, warmupS: 0 });
  const startUs = Number(process.hrtime.bigint() / 1000n);
  const wall = performance.now();
  const self = process.cpuUsage();
  const server = processCpuSeconds(serverPid);
  const pg = serviceCpuSeconds().postgres;
  const load = await measure({ ...options, warmupS: 0 });
  const selfCpu = process.cpuUsage(self);
  const cpu = {
    wallS: (performance.now() - wall) / 1000,
    loadGenerator: (selfCpu.user + selfCpu.system) / 1e6,
    server: processCpuSeconds(serverPid) - server,
    postgres: serviceCpuSeconds().postgres - pg,
  };
  return { load, cpu, windowUs: { startUs, endUs: Number(process.hrtime.bigint() / 1000n) } };
}

/** Microseconds of CPU per completed request. */
export const perRequestUs = (cpuSeconds: number, load: LoadResult) =>
  load.requests > 0 ? (cpuSeconds / load.requests) * 1e6 : 0;
