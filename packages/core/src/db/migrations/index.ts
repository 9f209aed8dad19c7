import { Migration0001Foundation } from './0001-foundation.ts';
import { Migration0002Debates } from './0002-debates.ts';
import { Migration0003DebateReads } from './0003-debate-reads.ts';
import { Migration0004DebateCreation } from './0004-debate-creation.ts';
import { Migration0005DebateRemoval } from './0005-debate-removal.ts';
import { Migration0006DurableEngine } from './0006-durable-engine.ts';
import { Migration0007DebateInterruptions } from './0007-debate-interruptions.ts';
import { Migration0008AccountRateLimit } from './0008-account-rate-limit.ts';
import { Migration0009Outcomes } from './0009-outcomes.ts';
import { Migration0010SharingAndNotifications } from './0010-sharing-and-notifications.ts';
import { Migration0011Collections } from './0011-collections.ts';
import { Migration0012VotesAndPolls } from './0012-votes-and-polls.ts';
import { Migration0013Chains } from './0013-chains.ts';
import { Migration0014Search } from './0014-search.ts';
import { Migration0015Recommendations } from './0015-recommendations.ts';
import { Migration0016Embeddings } from './0016-embeddings.ts';

/** Every migration, in order. Listed explicitly so start-up never scans the file system. */
export const migrations = [
  { name: '0001-foundation', class: Migration0001Foundation },
  { name: '0002-debates', class: Migration0002Debates },
  { name: '0003-debate-reads', class: Migration0003DebateReads },
  { name: '0004-debate-creation', class: Migration0004DebateCreation },
  { name: '0005-debate-removal', class: Migration0005DebateRemoval },
  { name: '0006-durable-engine', class: Migration0006DurableEngine },
  { name: '0007-debate-interruptions', class: Migration0007DebateInterruptions },
  { name: '0008-account-rate-limit', class: Migration0008AccountRateLimit },
  { name: '0009-outcomes', class: Migration0009Outcomes },
  { name: '0010-sharing-and-notifications', class: Migration0010SharingAndNotifications },
  { name: '0011-collections', class: Migration0011Collections },
  { name: '0012-votes-and-polls', class: Migration0012VotesAndPolls },
  { name: '0013-chains', class: Migration0013Chains },
  { name: '0014-search', class: Migration0014Search },
  { name: '0015-recommendations', class: Migration0015Recommendations },
  { name: '0016-embeddings', class: Migration0016Embeddings },
];
