import { defineEntity, p } from '@mikro-orm/core';
import type {
  DebateCost,
  DebateDomain,
  DebateMode,
  DebateStatus,
  FundingSource,
  Verdict,
} from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import type { KeyRouting } from '../routing/models.ts';
import { Workspace } from '../workspaces/workspace.entity.ts';

export const DebateSchema = defineEntity({
  name: 'Debate',
  tableName: 'debates',
  indexes: [
    { name: 'debates_owner_created_index', properties: ['owner', 'createdAt'] },
    { name: 'debates_owner_status_index', properties: ['owner', 'status'] },
    { name: 'debates_workspace_created_index', properties: ['workspace', 'createdAt'] },
    // Partial: trending (recommendations/) reads only public, undeleted debates, newest first.
    {
      name: 'debates_public_created_index',
      expression: `create index "debates_public_created_index" on "debates" ("created_at") where "is_public" = true and "deleted_at" is null`,
    },
    // Partial: the few soft-deleted debates, for lookups that leave them out by anti-join (similar/similar.ts).
    {
      name: 'debates_deleted_index',
      expression: `create index "debates_deleted_index" on "debates" ("id") where "deleted_at" is not null`,
    },
    // Partial: the reconciler (engine/reconciler.ts) scans only unfinished debates.
    {
      name: 'debates_unfinished_index',
      expression: `create index "debates_unfinished_index" on "debates" ("lease_expires_at") where "status" in ('pending', 'running', 'paused')`,
    },
    // Partial, of live debates (migration 0041): an account's long history counted and paged from the
    // index alone (debates/list-debates.ts, outcomes/streaks.ts, debates/debate-analytics.ts), and search
    // suggestions' prefix as a range (search/suggest-searches.ts).
    {
      name: 'debates_owner_live_index',
      expression: `create index "debates_owner_live_index" on "debates" ("owner_id", "created_at", "id") where "deleted_at" is null`,
    },
    {
      name: 'debates_owner_completed_index',
      expression: `create index "debates_owner_completed_index" on "debates" ("owner_id", "completed_at", "id") include ("started_at", "round_count", "cost") where "status" = 'completed' and "deleted_at" is null`,
    },
    {
      name: 'debates_workspace_live_index',
      expression: `create index "debates_workspace_live_index" on "debates" ("workspace_id", "created_at", "id") where "deleted_at" is null`,
    },
    {
      name: 'debates_owner_question_prefix_index',
      expression: `create index "debates_owner_question_prefix_index" on "debates" ("owner_id", lower("question") text_pattern_ops) where "deleted_at" is null`,
    },
    // Search (search/, migration 0014): full text over the expression search ranks with, and trigram
    // indexes for ILIKE. The trigram ones exist only where the database has pg_trgm (the migration
    // skips them otherwise); declared here so the schema generator leaves them alone where they exist.
    {
      name: 'debates_search_fts_index',
      expression: `create index "debates_search_fts_index" on "debates" using gin (to_tsvector('english', "question" || ' ' || coalesce("context", '')))`,
    },
    {
      name: 'debates_question_trgm_index',
      expression: `create index "debates_question_trgm_index" on "debates" using gin ("question" gin_trgm_ops)`,
    },
    {
      name: 'debates_context_trgm_index',
      expression: `create index "debates_context_trgm_index" on "debates" using gin ("context" gin_trgm_ops)`,
    },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    owner: () => p.manyToOne(User).deleteRule('cascade').index(),
    question: p.text(),
    context: p.text().nullable(),
    mode: p.string().$type<DebateMode>(),
    status: p.string().$type<DebateStatus>().default('pending').index(),
    fundingSource: p.string().$type<FundingSource>(),
    isPublic: p.boolean().default(false),
    /** What the caller asked for; agentCount/roundCount below are what actually ran. */
    requestedAgents: p.integer(),
    requestedRounds: p.integer(),
    preset: p.string().length(50).nullable(),
    /** The creating key's routing config (preset, overrides, allowed providers); never provider keys. */
    routing: p.json<KeyRouting>().nullable(),
    /** Stop once the positions converge to this score (0.5–1, as the create routes validate it); null: run every round. */
    earlyStopThreshold: p.double().$type<number>().nullable(),
    /** A comparison's options (/v1 `options`), which its agents rank; null for any other debate. */
    compareOptions: p.json<string[]>().nullable(),
    /**
     * Runs with the evidence engine (the owner's plan includes it, decided at creation): agents read
     * retrieved passages and cite them; false: attachments go into prompts as excerpts.
     */
    evidenceEngine: p.boolean().default(false),
    agentCount: p.integer().nullable(),
    roundCount: p.integer().nullable(),
    verdict: p.json<Verdict>().nullable(),
    cost: p.json<DebateCost>().nullable(),
    failureCode: p.string().length(50).nullable(),
    failureMessage: p.text().nullable(),
    /** Incremented by a retry; events and turns are scoped to it. */
    attempt: p.integer().default(1),
    /** The workspace it belongs to (its members read it; its owner's plan paid); null = personal. */
    workspace: () => p.manyToOne(Workspace).nullable().deleteRule('cascade').updateRule('no action'),
    /** Model identifiers of the debaters that spoke, set on completion. */
    agentsUsed: p.json<string[]>().nullable(),
    /** Soft delete (DELETE /api/debates/:id): hidden from lists and reads, kept for the owner's records. */
    deletedAt: p.datetime().nullable(),
    /** The engine node running this attempt and until when its lease holds (engine/lease.ts). */
    leaseOwner: p.string().length(200).nullable(),
    /** Raised by every claim; a holder's writes carry the epoch they claimed, so a stale holder's fail. */
    leaseEpoch: p.integer().default(0),
    leaseExpiresAt: p.datetime().nullable(),
    /** Interruptions of this attempt that were not a node stopping or losing its lease (engine-node.ts). */
    interruptions: p.integer().default(0),
    /** Its subject area, classified once when it completes (outcomes/); null until then. */
    domain: p.string().length(20).$type<DebateDomain>().nullable(),
    /**
     * The debate this one was forked from, for the forks count of trending (recommendations/). No foreign
     * key: a source deleted for good leaves a dangling id that joins nothing.
     */
    forkedFromId: p.uuid().nullable().index(),
    /** Reads of its public link (sharing/), for popularity in search and recommendations. */
    viewCount: p.integer().default(0),
    /** When the reconciler last put this debate back on the queue. */
    requeuedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
  },
});

export class Debate extends DebateSchema.class {}
DebateSchema.setClass(Debate);
