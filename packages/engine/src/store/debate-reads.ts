import {
  type AttachmentExcerpt,
  attachmentExcerptsOfMany,
  type ownerCalibration,
  ownerCalibrations,
} from '@verdict/core';
import { Context, Effect, Layer } from 'effect';
import { EngineStorage } from '../services.ts';
import { coalescedCalls } from './coalesced-writes.ts';

/** An owner's calibration curves as the verdict's calibration takes them. */
type OwnerCurves = NonNullable<Awaited<ReturnType<typeof ownerCalibration>>>['model'];

/**
 * What a node's running debates read while they run, joined across debates as their writes are: the ready
 * attachments a round's first turn reads, and the owner's calibration curves a verdict takes. The debates a
 * node runs move together (a burst of jobs starts its rounds in step; its verdicts land together), so their
 * reads go in few statements instead of one each.
 */
export class DebateReads extends Context.Service<
  DebateReads,
  {
    attachments: (debateId: string) => Promise<AttachmentExcerpt[]>;
    calibration: (ownerId: string) => Promise<OwnerCurves | null>;
  }
>()('@verdict/engine/DebateReads') {
  static readonly layer = Layer.effect(
    DebateReads,
    Effect.gen(function* () {
      const { db } = yield* EngineStorage;
      const attachments = coalescedCalls(
        (debateIds: readonly string[]) => attachmentExcerptsOfMany(db, debateIds),
        {
          keyOf: (debateId: string) => debateId,
          ...READS,
        },
      );
      const calibrations = coalescedCalls(
        (ownerIds: readonly string[]) => ownerCalibrations(db.em(), ownerIds),
        {
          keyOf: (ownerId: string) => ownerId,
          ...READS,
        },
      );
      return DebateReads.of({
        attachments: async (debateId) => (await attachments(debateId)) ?? [],
        calibration: async (ownerId) => (await calibrations(ownerId))?.model ?? null,
      });
    }),
  );
}

/** Statements out at once, and debates in one. */
const READS = { maxInFlight: 2, maxPerStatement: 100 };
