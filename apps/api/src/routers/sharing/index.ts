import { router } from '../../trpc/init.ts';
import { createShare } from './create-share.ts';
import { getPublicDebate } from './get-public-debate.ts';
import { revokeShare } from './revoke-share.ts';
import { updateShare } from './update-share.ts';

export const sharingRouter = router({
  share: createShare,
  updateSettings: updateShare,
  revoke: revokeShare,
  publicDebate: getPublicDebate,
});
