/** The installed PostgreSQL and NATS binaries the test cluster runs (infra/test.sh finds or installs them). */
export function clusterBinaries(): { pgBin: string; natsServerBin: string } {
  const required = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run the tests with npm test (infra/test.sh sets it)`);
    return value;
  };
  return { pgBin: required('PG_BIN'), natsServerBin: required('NATS_SERVER_BIN') };
}

/** Settings of the scripted fault tests' nodes: faults noticed and mended in seconds, so a run is short. */
export const FAST_RECOVERY_SETTINGS = {
  SIMULATED_FIRST_TOKEN_MS: '150',
  CONCURRENT_DEBATES: '100',
  // The lease, the storage tolerance (a node cut off from its database hands its debates back) and the
  // reconciler (a job nobody got is queued again).
  ENGINE_LEASE_MS: '3000',
  ENGINE_STORAGE_TOLERANCE_MS: '4000',
  ENGINE_RECONCILE_INTERVAL_MS: '1000',
  ENGINE_STALE_AFTER_MS: '4000',
};
