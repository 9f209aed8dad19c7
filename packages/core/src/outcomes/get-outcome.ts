import type { OutcomeRecord } from '@verdict/contracts';
import { type OutcomeResources, ownRecord, toRecord } from './outcome-resources.ts';

/** The caller's outcome record of one of their debates. */
export const getOutcome =
  ({ db }: OutcomeResources) =>
  async (userId: string, debateId: string): Promise<OutcomeRecord> =>
    toRecord(await ownRecord(db.em(), userId, debateId));
