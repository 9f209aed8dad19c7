import type { EntityManager } from '@mikro-orm/core';
import type { EvidencePassage, ShareSettings } from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CoreResources } from '../resources.ts';
import type { SharingTables } from './tables.ts';
import type { ViewCounter } from './view-counter.ts';

/** What sharing's operations run on. */
export type SharingResources = Pick<CoreResources, 'db' | 'clock'> & {
  debateAccess: DebateAccess;
  views: ViewCounter;
  /** Where the share page is served: a link is `${appUrl}/share/${token}`. */
  appUrl: string;
  /** The passages a debate's transcript cites (evidence/evidence-reads.ts): what a link shows of its corpus. */
  citedEvidence: (debateId: string, attempt: number) => Promise<EvidencePassage[]>;
};

/** Typed queries on the share links and the debates behind them, on `em`. */
export const sharingQuery = (em: EntityManager) => query<SharingTables & DebateTables>(em);

type LinkRow = {
  allow_comments: boolean;
  allow_fork: boolean;
  show_cost: boolean;
  require_sign_in: boolean;
  created_at: string;
  updated_at: string;
};

export const settingsOf = (row: LinkRow): ShareSettings => ({
  allowComments: row.allow_comments,
  allowFork: row.allow_fork,
  showCost: row.show_cost,
  requireSignIn: row.require_sign_in,
});
