import type { Bus } from '@verdict/core';
import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import {
  EngineBus,
  EngineProbe,
  EngineSettings,
  type EngineSettingsShape,
  type ProbeMoment,
} from '../services.ts';
import { StorageUnavailable } from '../store/errors.ts';
import type { Orphan, PresentHolders } from '../store/holder-presence.ts';
import { LeaseStore } from '../store/lease-store.ts';
import { presenceWatchWorker } from './presence-watch.ts';

/**
 * The watch's judgement over a scripted series of looks: which holders it finds gone, what it asks the store
 * and queues, and when it refuses to judge. The statements themselves run against PostgreSQL in
 * engine-node.integration.test.ts.
 */
function watchOver(
  looks: (PresentHolders | 'outage')[],
  orphans: (gone: readonly number[]) => Orphan[] | 'outage',
) {
  const asked: number[][] = [];
  const queued: string[] = [];
  const moments: ProbeMoment[] = [];
  const store = {
    presentHolders: () => {
      const next = looks.shift();
      if (next === undefined) throw new Error('no look scripted');
      return next === 'outage'
        ? Effect.fail(new StorageUnavailable({ cause: 'down' }))
        : Effect.succeed(next);
    },
    orphansOf: (gone: readonly number[]) => {
      asked.push([...gone]);
      const found = orphans(gone);
      return found === 'outage'
        ? Effect.fail(new StorageUnavailable({ cause: 'down' }))
        : Effect.succeed(found);
    },
  } as unknown as LeaseStore['Service'];
  const bus = {
    jobs: {
      enqueue: async (job: { debateId: string }, copy?: string) =>
        void queued.push(`${job.debateId}/${copy}`),
    },
  } as unknown as Bus;
  const worker = Effect.runSync(
    presenceWatchWorker.pipe(
      Effect.provideService(EngineSettings, { presenceWatchMs: 50 } as EngineSettingsShape),
    ),
  );
  const look = () =>
    Effect.runPromise(
      Effect.result(worker.pass).pipe(
        Effect.provideService(LeaseStore, store),
        Effect.provideService(EngineBus, bus),
        Effect.provideService(EngineProbe, { notice: (moment) => moments.push(moment) }),
      ),
    );
  return { look, asked, queued, moments };
}

const present = (self: boolean, ...holders: number[]): PresentHolders => ({
  holders: new Set(holders),
  self,
});
const orphan = (debateId: string, epoch: number): Orphan => ({ debateId, attempt: 1, epoch });

describe('the presence watch', () => {
  it('queues, once, the debates of a holder seen at one look and gone at the next', async () => {
    const watch = watchOver([present(true, 1, 2, 3), present(true, 1, 3), present(true, 1, 3)], () => [
      orphan('d1', 4),
      orphan('d2', 7),
    ]);
    for (let i = 0; i < 3; i++) await watch.look();
    expect(watch.asked).toEqual([[2]]);
    // Copies named by the dead lease's epoch: every node watching queues the same two, which the queue collapses.
    expect(watch.queued).toEqual(['d1/holder-gone-4', 'd2/holder-gone-7']);
    expect(watch.moments).toEqual([
      { _tag: 'PresenceLooked', gone: 0, queued: 0 },
      { _tag: 'PresenceLooked', gone: 1, queued: 2 },
      { _tag: 'PresenceLooked', gone: 0, queued: 0 },
    ]);
  });

  it('judges nobody without its own presence, and starts afresh once it is back (a database restart)', async () => {
    const watch = watchOver(
      [
        present(true, 1, 2, 3),
        present(false),
        present(true, 1),
        present(true, 1, 3),
        'outage',
        present(true, 3),
      ],
      () => [orphan('never', 1)],
    );
    for (let i = 0; i < 6; i++) await watch.look();
    // Every lock went with the restart and came back one by one; after the outage the baseline is gone too.
    expect(watch.asked).toEqual([]);
    expect(watch.queued).toEqual([]);
  });

  it('asks again about the same holders when a look failed before their debates were queued', async () => {
    let calls = 0;
    const watch = watchOver([present(true, 1, 2), present(true, 1), present(true, 1)], () =>
      ++calls === 1 ? 'outage' : [orphan('d', 2)],
    );
    const first = await watch.look();
    const failed = await watch.look();
    expect(first._tag).toBe('Success');
    expect(failed._tag).toBe('Failure');
    await watch.look();
    expect(watch.asked).toEqual([[2], [2]]);
    expect(watch.queued).toEqual(['d/holder-gone-2']);
  });
});
