import type { DebateVisibility } from '@verdict/contracts';
import { setDebatePublic } from '../debates/debate-record.ts';
import type { SharingResources } from './sharing-resources.ts';

/** Makes the debate public (which takes the right to publish it: debate-access.ts) or private again. */
export const setVisibility =
  ({ db, debateAccess }: SharingResources) =>
  async (userId: string, id: string, isPublic: boolean): Promise<DebateVisibility> => {
    await debateAccess.controlled(userId, id, isPublic ? 'publish' : 'control');
    await setDebatePublic(db.em(), id, isPublic);
    return { id, isPublic };
  };
