import { createHash, randomUUID } from 'node:crypto';
import { type DebateMode, type FundingSource, MODE_CREDITS, type Plan } from '@verdict/contracts';
import { chooseFunding } from '../billing/funding.ts';
import type { Bus } from '../bus/ports.ts';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/orm.ts';
import { sqlIn } from '../db/sql.ts';
import type { KeyRouting } from '../routing/models.ts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { assertConcurrentRoom, debitCredits, dispatch } from './creation-steps.ts';
import type { ByokKeys } from './provider-keys-header.ts';

export type CreateDebateRequest = {
  ownerId: string;
  route: 'api' | 'v1';
  question: string;
  context: string | null;
  mode: DebateMode;
  agents: number;
  rounds: number;
  preset: string | null;
  routing: KeyRouting | null;
  /** Options to compare (/v1): priced as a comparison. */
  compare: boolean;
  skipCache: boolean;
  providerKeys: ByokKeys | null;
  idempotencyKey: string | null;
  /** Everything that identifies the request, hashed for the Idempotency-Key check. */
  fingerprint: unknown;
};

export type CreateDebateResult = {
  debateId: string;
  fundingSource: FundingSource;
  cached: boolean;
  /** The owner's plan, read under the lock anyway (the free plan's response names its judge). */
  plan: Plan;
};

const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/**
 * Creates a debate and pays for it in one transaction: the owner's row is locked first, so concurrent
 * creates of one account run one after another — the balance can never be overdrawn and the concurrent
 * limit is exact. The job is enqueued after commit.
 */
export function createDebateCreator(
  db: Database,
  bus: Bus,
  clock: Clock,
  config: Config,
  onQueueError: (error: unknown) => void = () => {},
) {
  const upgradeUrl = `${config.appUrl}/pricing`;

  return async (request: CreateDebateRequest): Promise<CreateDebateResult> => {
    const requestHash = createHash('sha256').update(JSON.stringify(request.fingerprint)).digest('hex');
    const result = await db.em().transactional(async (em) => {
      const q = { run: sqlIn(em) };
      const now = new Date(clock.now());
      const [owner] = await q.run<{ plan: Plan; credit_balance: number }>(
        'select plan, credit_balance from users where id = ? for update',
        [request.ownerId],
      );
      if (!owner) throw new AppError('USER_NOT_FOUND', 'User not found');

      if (request.idempotencyKey) {
        const [previous] = await q.run<{ request_hash: string; debate_id: string; created_at: Date }>(
          'select request_hash, debate_id, created_at from idempotency_keys where owner_id = ? and route = ? and key = ?',
          [request.ownerId, request.route, request.idempotencyKey],
        );
        if (previous && now.getTime() - new Date(previous.created_at).getTime() < IDEMPOTENCY_WINDOW_MS) {
          if (previous.request_hash !== requestHash) {
            throw new AppError('CONFLICT', 'This Idempotency-Key was used with a different request');
          }
          const [first] = await q.run<{ funding_source: FundingSource }>(
            'select funding_source from debates where id = ?',
            [previous.debate_id],
          );
          return {
            debateId: previous.debate_id,
            fundingSource: first?.funding_source ?? 'user_credits',
            cached: false,
            replayed: true,
            plan: owner.plan,
          };
        }
        if (previous) {
          await q.run('delete from idempotency_keys where owner_id = ? and route = ? and key = ?', [
            request.ownerId,
            request.route,
            request.idempotencyKey,
          ]);
        }
      }

      const remember = (debateId: string) =>
        request.idempotencyKey
          ? q.run(
              'insert into idempotency_keys (owner_id, route, key, request_hash, debate_id, created_at) values (?, ?, ?, ?, ?, ?)',
              [request.ownerId, request.route, request.idempotencyKey, requestHash, debateId, now],
            )
          : Promise.resolve([]);

      if (!request.skipCache && config.debates.cacheTtlMs > 0 && !request.providerKeys) {
        const [hit] = await q.run<{ id: string; funding_source: FundingSource }>(
          `select id, funding_source from debates
            where owner_id = ? and question = ? and mode = ? and context is not distinct from ?
              and requested_agents = ? and requested_rounds = ? and preset is not distinct from ?
              and status = 'completed' and deleted_at is null and completed_at > ?
            order by completed_at desc limit 1`,
          [
            request.ownerId,
            request.question,
            request.mode,
            request.context,
            request.agents,
            request.rounds,
            request.preset,
            new Date(now.getTime() - config.debates.cacheTtlMs),
          ],
        );
        if (hit) {
          await remember(hit.id);
          return {
            debateId: hit.id,
            fundingSource: hit.funding_source,
            cached: true,
            replayed: false,
            plan: owner.plan,
          };
        }
      }

      await assertConcurrentRoom(q.run, request.ownerId, config.debates.concurrentLimit);

      const credits = request.compare ? MODE_CREDITS.compare : MODE_CREDITS[request.mode];
      // Counting this month's free-tier debates only matters for a free account its credits do not cover.
      const needsFreeTier = owner.plan === 'free' && Number(owner.credit_balance) < credits;
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const [free] = needsFreeTier
        ? await q.run<{ n: number }>(
            `select count(*)::int as n from debates where owner_id = ? and funding_source = 'free_tier' and created_at >= ?`,
            [request.ownerId, monthStart],
          )
        : [];
      const funding = chooseFunding({
        plan: owner.plan,
        balance: Number(owner.credit_balance),
        credits,
        hasProviderKeys: request.providerKeys !== null,
        freeUsedThisMonth: Number(free?.n ?? 0),
        freeMonthly: config.debates.freeMonthly,
        route: request.route,
        upgradeUrl,
      });

      const debateId = randomUUID();
      await q.run(
        `insert into debates (id, owner_id, question, context, mode, status, funding_source, is_public,
           requested_agents, requested_rounds, preset, routing, attempt, created_at)
         values (?, ?, ?, ?, ?, 'pending', ?, false, ?, ?, ?, ?::jsonb, 1, ?)`,
        [
          debateId,
          request.ownerId,
          request.question,
          request.context,
          request.mode,
          funding.source,
          request.agents,
          request.rounds,
          // The free tier runs on the lighter routing unless the caller chose a preset.
          request.preset ?? (funding.source === 'free_tier' ? 'economy' : null),
          request.routing ? JSON.stringify(request.routing) : null,
          now,
        ],
      );
      if (funding.charge > 0) {
        await debitCredits(q.run, {
          ownerId: request.ownerId,
          credits: funding.charge,
          debateId,
          note: `${request.mode} debate`,
          at: now,
        });
      }
      await remember(debateId);
      return { debateId, fundingSource: funding.source, cached: false, replayed: false, plan: owner.plan };
    });

    if (!result.cached && !result.replayed) {
      await dispatch(bus, { debateId: result.debateId, attempt: 1 }, request.providerKeys, onQueueError);
    }
    return {
      debateId: result.debateId,
      fundingSource: result.fundingSource,
      cached: result.cached,
      plan: result.plan,
    };
  };
}
