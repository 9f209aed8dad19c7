import { previewShare } from './preview-share.ts';
import { readSharedDebate } from './read-shared-debate.ts';
import { revokeShare } from './revoke-share.ts';
import { setVisibility } from './set-visibility.ts';
import { shareDebate } from './share-debate.ts';
import { shareSettingsFor } from './share-settings-for.ts';
import type { SharingResources } from './sharing-resources.ts';
import { updateShareSettings } from './update-share-settings.ts';

export type { PublicDebateRead, PublicEventRow } from './public-debate.ts';

export type Sharing = ReturnType<typeof createSharing>;

/**
 * Who besides its owner may see a debate: public debates (visibility), and whoever holds its share link.
 * Links are owner-only to manage; another user's debate is "not found", never "forbidden". One operation
 * a file.
 */
export function createSharing(resources: SharingResources) {
  return {
    setVisibility: setVisibility(resources),
    share: shareDebate(resources),
    updateSettings: updateShareSettings(resources),
    revoke: revokeShare(resources),
    settingsFor: shareSettingsFor(resources),
    preview: previewShare(resources),
    read: readSharedDebate(resources),
  };
}
