import { router } from '../../trpc/init.ts';
import { createKey } from './create-key.ts';
import { listKeys } from './list-keys.ts';
import { revokeKey } from './revoke-key.ts';
import { updateKey } from './update-key.ts';

export const keysRouter = router({ create: createKey, list: listKeys, update: updateKey, revoke: revokeKey });
