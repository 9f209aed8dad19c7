/** What the scripted fault tests on the test cluster (infra/cluster/) share. */
import type { TestCore } from '@verdict/core/testing';
import { expect } from 'vitest';
import { completedOnceViolations, unfinishedAfter } from '../../infra/cluster/invariants.ts';
import { type ApiClient, expectBody } from './api-client.ts';

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

/** `count` debates of two agents and two rounds created through `client`, their questions naming `label`. */
export async function createDebatesThrough(
  client: ApiClient,
  label: string,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await client.POST('/api/debates', {
      body: {
        question: `Should ${label} number ${i} go ahead?`,
        agentCount: 2,
        maxRounds: 2,
        skipCache: true,
      },
    });
    ids.push(expectBody(created, 201).debateId);
  }
  return ids;
}

/** Waits for every debate to finish, then checks each completed once, its events gap-free, one charge. */
export async function expectCompletedOnce(db: TestCore, ids: string[], withinMs: number): Promise<void> {
  expect(await unfinishedAfter(db.core.db, ids, withinMs)).toEqual([]);
  for (const id of ids) expect(await completedOnceViolations(db.core.db, id)).toEqual([]);
}
