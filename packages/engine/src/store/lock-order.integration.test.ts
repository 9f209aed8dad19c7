import { AppError, type CommandReply, createDebateCreation, query } from '@verdict/core';
import { createTestCore, eventually, type TestCore, uniqueSchema } from '@verdict/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAsNode } from '../testing/index.ts';
import { completedOutcome, testCost } from '../testing/outcomes.ts';
import type { DebateOutcome } from './records.ts';

const cost = testCost;
const completed = completedOutcome();

/**
 * Each final state, and where its transaction stalls in this test: the first table it touches after the
 * debate's row and before it reaches the account's (a refund credits the account; a completion's outcome
 * record and webhook row reference it, which share-locks its key).
 */
const CASES: { name: string; outcome: DebateOutcome; stallAt: 'credit_ledger' | 'outcomes' }[] = [
  {
    name: 'failed and refunded',
    outcome: { status: 'failed', code: 'PROVIDER_ERROR', message: 'judge refuses', cost },
    stallAt: 'credit_ledger',
  },
  { name: 'completed', outcome: completed, stallAt: 'outcomes' },
];

// The API process (retries) and an engine process (final states, refunds) on one schema, each taking the
// locks of one account and one debate at the same moment: both must finish, whichever waits.
describe('a retry and the engine finishing the same debate at the same moment', () => {
  let api: TestCore;
  let engine: TestCore;

  beforeAll(async () => {
    const schema = uniqueSchema('lockorder');
    api = await createTestCore({ DATABASE_SCHEMA: schema });
    engine = await createTestCore({ DATABASE_SCHEMA: schema });
  });
  afterAll(async () => {
    await engine?.core.close();
    await api?.cleanup();
  });

  const rows = <T>(query: string, params: unknown[] = []) => api.core.db.execute<T>(query, params);

  /**
   * Holds a table, as a slow statement would: whoever touches it next stops there with what it has locked
   * so far. Resolves with the holder's backend pid and the release.
   */
  const holdTable = (table: string) =>
    new Promise<{ pid: number; release: () => void }>((held) => {
      void api.core.db.em().transactional(async (em) => {
        await sql`lock table ${sql.table(table)} in access exclusive mode`.execute(query(em));
        const [me] = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(query(em))).rows;
        await new Promise<void>((release) => held({ pid: Number(me?.pid), release }));
      });
    });
  /** The backends waiting for a lock `pid` holds. */
  const blockedBy = async (pid: number) =>
    (
      await rows<{ pid: number }>('select pid from pg_stat_activity where ? = any(pg_blocking_pids(pid))', [
        pid,
      ])
    ).map((row) => Number(row.pid));

  /** A pro account with credits, and a debate of it charged and queued (no engine pulls the job here). */
  const accountWithDebate = async (
    label: string,
    creation: Pick<typeof api.core.debates, 'create'> = api.core.debates,
  ) => {
    const { id: ownerId } = await api.core.accounts.createUser({
      email: `lock-${label.replace(/\W/g, '')}@example.com`,
      name: 'Lock',
    });
    await api.core.accounts.setPlan(ownerId, 'pro');
    await api.core.billing.grantCredits(ownerId, 20);
    const { debateId } = await creation.create({
      ownerId,
      route: 'api',
      question: `Lock order (${label}): who waits for whom?`,
      context: null,
      mode: 'fast',
      preset: null,
      routing: null,
      compare: false,
      skipCache: true,
      providerKeys: null,
      idempotencyKey: null,
      fingerprint: label,
    });
    return { ownerId, debateId };
  };

  for (const { name, outcome, stallAt } of CASES) {
    it(`both finish, without a deadlock, when the engine stores it ${name}; the ledger adds up`, async () => {
      const { ownerId, debateId } = await accountWithDebate(name);
      const balance = async () =>
        Number(
          (await rows<{ b: number }>('select credit_balance as b from users where id = ?', [ownerId]))[0]?.b,
        );
      const charged = (
        await rows<{ n: number }>('select -sum(delta)::int as n from credit_ledger where debate_id = ?', [
          debateId,
        ])
      )[0]?.n;
      expect(Number(charged)).toBeGreaterThan(0);
      const before = await balance();

      const node = storeAsNode(engine.core, `lock-order-${name}`);
      const claim = await node.claim({ debateId, attempt: 1 });
      if (claim.kind !== 'claimed') throw new Error(`not claimed: ${claim.kind}`);
      await node.markRunning(claim.lease);

      // The engine's finish stops there, holding whatever it locked before.
      const table = await holdTable(stallAt);
      const finishing = node.finish(claim.lease, outcome);
      const [finisher] = await eventually(
        () => blockedBy(table.pid),
        (pids) => pids.length === 1,
      );
      // The owner retries meanwhile: it takes the account, then the debate, unless it has to wait.
      let retrySettled = false;
      const retrying = api.core.debates.retry(ownerId, debateId, null).finally(() => {
        retrySettled = true;
      });
      retrying.catch(() => {});
      await eventually(async () => retrySettled || (await blockedBy(Number(finisher))).length > 0, Boolean);
      table.release();

      const [finished, retried] = await Promise.allSettled([finishing, retrying]);
      expect(finished).toEqual({ status: 'fulfilled', value: true });
      // Refused as the rules say (it was not failed when it looked), never a deadlock's 500.
      expect(retried.status).toBe('rejected');
      const reason = retried.status === 'rejected' ? retried.reason : null;
      expect(reason, String(reason)).toBeInstanceOf(AppError);
      expect((reason as AppError).code).toBe('DEBATE_NOT_FAILED');

      const [debate] = await rows<{ status: string }>('select status from debates where id = ?', [debateId]);
      expect(debate?.status).toBe(outcome.status);
      const refunded = outcome.status === 'failed' ? Number(charged) : 0;
      expect(await balance()).toBe(before + refunded);
      const [sum] = await rows<{ n: number }>(
        'select sum(delta)::int as n from credit_ledger where user_id = ?',
        [ownerId],
      );
      expect(Number(sum?.n)).toBe(await balance());
    });
  }

  it('asks the engines whether they run a debate it refuses to retry only once it holds no lock', async () => {
    let asked: (reply: CommandReply | 'no_engine') => void = () => {};
    let askedAt: number | null = null;
    const slowEngines = {
      ...api.core.bus,
      commands: {
        ...api.core.bus.commands,
        send: () =>
          new Promise<CommandReply | 'no_engine'>((reply) => {
            askedAt = Date.now();
            asked = reply;
          }),
      },
    };
    const creation = createDebateCreation({
      db: api.core.db,
      bus: slowEngines,
      clock: api.core.clock,
      config: api.core.config,
      onError: () => {},
    });
    const { ownerId, debateId } = await accountWithDebate('asking', creation);
    const node = storeAsNode(engine.core, 'lock-order-asking');
    const claim = await node.claim({ debateId, attempt: 1 });
    if (claim.kind !== 'claimed') throw new Error(`not claimed: ${claim.kind}`);
    await node.markRunning(claim.lease);

    const retrying = creation.retry(ownerId, debateId, null);
    retrying.catch(() => {});
    await eventually(
      () => askedAt,
      (at) => at !== null,
    );
    // While the engines take their time, the account and the debate are free: nothing waits on the network.
    const locked = await api.core.db
      .em()
      .transactional(async (em) => {
        const k = query(em);
        const user = await sql`select id from users where id = ${ownerId} for update nowait`.execute(k);
        const debate = await sql`select id from debates where id = ${debateId} for update nowait`.execute(k);
        return user.rows.length + debate.rows.length;
      })
      .catch((error: unknown) => String(error))
      .finally(() => asked('no_engine'));
    expect(locked).toBe(2);
    await expect(retrying).rejects.toMatchObject({ code: 'DEBATE_NOT_FAILED' });
  });

  it('leaves nothing of a final state it could not store: no statement of its transaction lands after the rollback', async () => {
    const { debateId } = await accountWithDebate('refused');
    const node = storeAsNode(engine.core, 'lock-order-refused');
    const claim = await node.claim({ debateId, attempt: 1 });
    if (claim.kind !== 'claimed') throw new Error(`not claimed: ${claim.kind}`);
    await node.markRunning(claim.lease);
    const rowOf = async () =>
      (
        await rows<{ status: string; cost: unknown; completed_at: string | null }>(
          'select status, cost, completed_at from debates where id = ?',
          [debateId],
        )
      )[0];
    const tables = ['outcomes', 'embedding_queue', 'webhook_outbox', 'debate_events'];
    const counts = async () => {
      const counted: Record<string, number> = {};
      for (const table of tables) {
        const [n] = await rows<{ n: number }>(`select count(*)::int as n from ${table} where debate_id = ?`, [
          debateId,
        ]);
        counted[table] = Number(n?.n);
      }
      return counted;
    };
    const before = { row: await rowOf(), counts: await counts() };
    // The webhook row, one of the statements sent together after the final update, is refused.
    await rows(`create function refuse_webhook() returns trigger language plpgsql as $$
      begin raise exception 'webhook row refused'; end $$`);
    await rows(`create trigger refuse_webhook before insert on webhook_outbox for each row
      when (new.debate_id = '${debateId}') execute function refuse_webhook()`);
    try {
      await expect(node.finish(claim.lease, completed)).rejects.toBeDefined();
      // Let any straggler reach the database, were one sent after the transaction ended.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect({ row: await rowOf(), counts: await counts() }).toEqual(before);
      expect(before.row?.status).toBe('running');
    } finally {
      await rows('drop trigger refuse_webhook on webhook_outbox');
      await rows('drop function refuse_webhook()');
    }
  });
});
