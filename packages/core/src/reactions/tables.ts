import type { TablesOf } from '../db/kysely.ts';
import type { ArgumentVoteSchema } from './argument-vote.entity.ts';
import type { PollSchema } from './poll.entity.ts';
import type { PollVoteSchema } from './poll-vote.entity.ts';

/** The tables of argument votes and polls, for typed queries (db/kysely.ts). */
export type ReactionTables = TablesOf<typeof ArgumentVoteSchema | typeof PollSchema | typeof PollVoteSchema>;
