import { randomUUID } from 'node:crypto';
import {
  CHAIN_CONTEXT_MAX,
  CHAIN_NAME_MAX,
  Chain,
  ChainContext,
  ChainList,
  ChainWithNodes,
  type CreatedApiKey,
} from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  type RequestOptions,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

type StoredVerdict = { recommendation: string; confidence: number; oneLiner: string };

describe('decision chains', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  let aliceKey: CreatedApiKey;

  const as = (user: TestUser): RequestOptions => ({ cookie: user.cookie });

  /** A debate of `owner` written straight to the database: completed with `verdict`, or pending without. */
  const debateOf = async (
    owner: TestUser,
    question = 'Should we open a second office in Lisbon next year?',
    verdict: StoredVerdict | null = {
      recommendation: 'PROCEED',
      confidence: 0.72,
      oneLiner: 'Open it, but lease short.',
    },
  ) => {
    const id = randomUUID();
    const stored = verdict && {
      ...verdict,
      narrative: 'Weighed.',
      arguments: [],
      keyEvidence: [],
      decisionMatrix: [],
      nextSteps: [],
      revisitTriggers: [],
      missingAgents: [],
    };
    await h.core.db.execute(
      `insert into debates (id, owner_id, question, mode, status, funding_source, requested_agents,
         requested_rounds, verdict, completed_at)
       values (?, ?, ?, 'fast', ?, 'user_credits', 3, 1, ?::jsonb, ?)`,
      [
        id,
        owner.session.user.id,
        question,
        verdict ? 'completed' : 'pending',
        stored ? JSON.stringify(stored) : null,
        verdict ? new Date().toISOString() : null,
      ],
    );
    return id;
  };

  const softDelete = (debateId: string) =>
    h.core.db.execute('update debates set deleted_at = now() where id = ?', [debateId]);

  const createChain = (user: TestUser, body: Record<string, unknown>) =>
    h.request('POST', '/api/chains', { ...as(user), body });

  const chainOf = async (user: TestUser, rootDebateId: string, name = 'Office expansion') => {
    const res = await createChain(user, { name, rootDebateId });
    expect(res.status, res.text).toBe(201);
    return Chain.parse(res.json);
  };

  const add = (user: TestUser, chainId: string, body: Record<string, unknown>) =>
    h.request('POST', `/api/chains/${chainId}/debates`, { ...as(user), body });

  const addOk = async (
    user: TestUser,
    chainId: string,
    debateId: string,
    parentDebateId: string,
    relationship = 'follow_up',
  ) => {
    const res = await add(user, chainId, { debateId, parentDebateId, relationship });
    expect(res.status, res.text).toBe(201);
    return ChainWithNodes.parse(res.json);
  };

  const read = async (user: TestUser, chainId: string) => {
    const res = await h.request('GET', `/api/chains/${chainId}`, as(user));
    expect(res.status, res.text).toBe(200);
    return ChainWithNodes.parse(res.json);
  };

  const contextOf = async (user: TestUser, chainId: string) => {
    const res = await h.request('GET', `/api/chains/${chainId}/context`, as(user));
    expect(res.status, res.text).toBe(200);
    return ChainContext.parse(res.json);
  };

  /** The tree as [debateId, parentDebateId, relationship, order, depth] rows. */
  const shapeOf = (chain: ChainWithNodes) =>
    chain.nodes.map((n) => [n.debateId, n.parentDebateId, n.relationship, n.order, n.depth]);

  const outbox = (chainId: string) =>
    h.core.db.execute<{ event: string; user_id: string; debate_id: string | null; payload: unknown }>(
      `select event, user_id, debate_id, payload from webhook_outbox
       where payload->>'chainId' = ? order by created_at, event`,
      [chainId],
    );

  beforeAll(async () => {
    h = await startServer();
    [alice, bob] = await Promise.all([registerUser(h), registerUser(h)]);
    aliceKey = await createKey(h, alice, { name: 'chains', config: { rateLimit: 10_000 } });
  });
  afterAll(async () => {
    await h.close();
  });

  describe('POST /api/chains', () => {
    it('starts a chain from one of the caller’s debates: 201, one debate, chain.created queued', async () => {
      const root = await debateOf(alice);
      const res = await createChain(alice, {
        name: '  Office expansion  ',
        rootDebateId: root.toUpperCase(),
      });
      expect(res.status, res.text).toBe(201);
      const chain = Chain.parse(res.json);
      expect(chain).toMatchObject({
        name: 'Office expansion',
        userId: alice.session.user.id,
        rootDebateId: root,
        debateCount: 1,
      });
      expect(chain.updatedAt).toBe(chain.createdAt);
      expect(await outbox(chain.id)).toEqual([
        {
          event: 'chain.created',
          user_id: alice.session.user.id,
          debate_id: root,
          payload: { chainId: chain.id, name: 'Office expansion', rootDebateId: root },
        },
      ]);
      const tree = await read(alice, chain.id);
      expect(shapeOf(tree)).toEqual([[root, null, null, 0, 0]]);
    });

    it('works with an API key as with a session', async () => {
      const root = await debateOf(alice);
      const res = await h.request('POST', '/api/chains', {
        key: aliceKey.key,
        body: { name: 'By key', rootDebateId: root },
      });
      expect(res.status, res.text).toBe(201);
    });

    it('refuses a bad body: 400 VALIDATION_ERROR naming the field', async () => {
      const root = await debateOf(alice);
      const cases: [Record<string, unknown>, string][] = [
        [{ name: '', rootDebateId: root }, 'name'],
        [{ name: ' \u200b ', rootDebateId: root }, 'name'],
        [{ name: 'x'.repeat(CHAIN_NAME_MAX + 1), rootDebateId: root }, 'name'],
        [{ rootDebateId: root }, 'name'],
        [{ name: 'No root' }, 'rootDebateId'],
        [{ name: 'Bad root', rootDebateId: 'not-a-uuid' }, 'rootDebateId'],
        [{ name: 'Extra', rootDebateId: root, color: 'red' }, ''],
      ];
      for (const [body, path] of cases) {
        const error = expectError(await createChain(alice, body), 'VALIDATION_ERROR');
        expect(
          (error.details ?? []).map((d) => d.path),
          JSON.stringify(body),
        ).toContain(path);
      }
      const longest = await createChain(alice, { name: 'x'.repeat(CHAIN_NAME_MAX), rootDebateId: root });
      expect(longest.status, longest.text).toBe(201);
    });

    it('refuses a root that is missing, deleted or another user’s: 404 NOT_FOUND', async () => {
      const deleted = await debateOf(alice);
      await softDelete(deleted);
      for (const rootDebateId of [MISSING, deleted, await debateOf(bob)]) {
        expectError(await createChain(alice, { name: 'Nope', rootDebateId }), 'NOT_FOUND');
      }
    });

    it('requires credentials: 401', async () => {
      const res = await h.request('POST', '/api/chains', { body: { name: 'x', rootDebateId: MISSING } });
      expectError(res, 'UNAUTHORIZED');
    });
  });

  describe('GET /api/chains', () => {
    it('lists the caller’s chains only, newest first, with their sizes', async () => {
      const carol = await registerUser(h);
      const first = await chainOf(carol, await debateOf(carol), 'First');
      const second = await chainOf(carol, await debateOf(carol), 'Second');
      await addOk(carol, first.id, await debateOf(carol), first.rootDebateId);
      await chainOf(bob, await debateOf(bob), 'Bob’s');
      const res = await h.request('GET', '/api/chains', as(carol));
      expect(res.status, res.text).toBe(200);
      const { chains } = ChainList.parse(res.json);
      expect(chains.map((c) => [c.id, c.name, c.debateCount])).toEqual([
        [second.id, 'Second', 1],
        [first.id, 'First', 2],
      ]);
      const empty = await registerUser(h);
      expect(ChainList.parse((await h.request('GET', '/api/chains', as(empty))).json)).toEqual({
        chains: [],
      });
    });
  });

  describe('GET /api/chains/:id', () => {
    it('answers the tree: nodes in the order added, each with parent, relationship, depth, children and debate', async () => {
      const root = await debateOf(alice, 'Should we open a second office in Lisbon?');
      const chain = await chainOf(alice, root);
      const followUp = await debateOf(alice, 'Which Lisbon district suits the office?', {
        recommendation: 'RECONSIDER',
        confidence: 0.4,
        oneLiner: 'Look at Porto first.',
      });
      const reversal = await debateOf(alice, 'Should we drop Lisbon for Porto?', null);
      const refinement = await debateOf(alice, 'Should the Lisbon office start with ten seats?');
      await addOk(alice, chain.id, followUp, root, 'follow_up');
      await addOk(alice, chain.id, reversal, followUp, 'reversal');
      const answered = await addOk(alice, chain.id, refinement, root, 'refinement');
      const tree = await read(alice, chain.id);
      expect(answered).toEqual(tree);
      expect(tree.debateCount).toBe(4);
      expect(shapeOf(tree)).toEqual([
        [root, null, null, 0, 0],
        [followUp, root, 'follow_up', 1, 1],
        [reversal, followUp, 'reversal', 2, 2],
        [refinement, root, 'refinement', 3, 1],
      ]);
      expect(tree.nodes.map((n) => n.childDebateIds)).toEqual([[followUp, refinement], [reversal], [], []]);
      expect(tree.nodes[1]?.debate).toMatchObject({
        id: followUp,
        question: 'Which Lisbon district suits the office?',
        status: 'completed',
        mode: 'fast',
        recommendation: 'RECONSIDER',
        confidence: 0.4,
        oneLiner: 'Look at Porto first.',
      });
      expect(tree.nodes[2]?.debate).toMatchObject({
        status: 'pending',
        recommendation: null,
        confidence: null,
        oneLiner: null,
      });
      expect(new Date(tree.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(tree.createdAt).getTime());
    });

    it('answers 404 for a missing chain and 400 for a bad id', async () => {
      expectError(await h.request('GET', `/api/chains/${MISSING}`, as(alice)), 'NOT_FOUND');
      expectError(await h.request('GET', '/api/chains/not-a-uuid', as(alice)), 'VALIDATION_ERROR');
    });
  });

  describe('POST /api/chains/:id/debates', () => {
    it('queues chain.updated with the link, in the same transaction as the addition', async () => {
      const root = await debateOf(alice);
      const chain = await chainOf(alice, root, 'Hiring');
      const next = await debateOf(alice);
      await addOk(alice, chain.id, next, root, 'reversal');
      const rows = await outbox(chain.id);
      expect(rows.map((r) => r.event)).toEqual(['chain.created', 'chain.updated']);
      expect(rows[1]).toEqual({
        event: 'chain.updated',
        user_id: alice.session.user.id,
        debate_id: next,
        payload: {
          chainId: chain.id,
          name: 'Hiring',
          debateId: next,
          parentDebateId: root,
          relationship: 'reversal',
        },
      });
      // A refused addition changes nothing and queues nothing.
      expectError(
        await add(alice, chain.id, { debateId: next, parentDebateId: root, relationship: 'reversal' }),
        'VALIDATION_ERROR',
      );
      expect(await outbox(chain.id)).toHaveLength(2);
    });

    it('refuses a debate already in the chain, and a link that would make a cycle: 400 with details', async () => {
      const root = await debateOf(alice);
      const chain = await chainOf(alice, root);
      const child = await debateOf(alice);
      const grandchild = await debateOf(alice);
      await addOk(alice, chain.id, child, root);
      await addOk(alice, chain.id, grandchild, child);
      const sibling = await debateOf(alice);
      await addOk(alice, chain.id, sibling, root);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ debateId: child, parentDebateId: sibling }, 'debateId', 'already_in_chain'],
        [{ debateId: child, parentDebateId: root }, 'debateId', 'already_in_chain'],
        [{ debateId: root, parentDebateId: grandchild }, 'parentDebateId', 'cycle'],
        [{ debateId: child, parentDebateId: grandchild }, 'parentDebateId', 'cycle'],
        [{ debateId: child, parentDebateId: child }, 'parentDebateId', 'cycle'],
        [{ debateId: root, parentDebateId: root }, 'parentDebateId', 'cycle'],
      ];
      for (const [body, path, code] of cases) {
        const error = expectError(
          await add(alice, chain.id, { ...body, relationship: 'follow_up' }),
          'VALIDATION_ERROR',
        );
        expect(error.details, JSON.stringify(body)).toEqual([expect.objectContaining({ path, code })]);
      }
      expect((await read(alice, chain.id)).nodes).toHaveLength(4);
    });

    it('refuses a bad body: 400 VALIDATION_ERROR naming the field', async () => {
      const root = await debateOf(alice);
      const chain = await chainOf(alice, root);
      const next = await debateOf(alice);
      const valid = { debateId: next, parentDebateId: root, relationship: 'follow_up' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...valid, relationship: 'sequel' }, 'relationship'],
        [{ ...valid, relationship: undefined }, 'relationship'],
        [{ ...valid, parentDebateId: undefined }, 'parentDebateId'],
        [{ ...valid, debateId: 'nope' }, 'debateId'],
        [{ ...valid, parentDebateId: null }, 'parentDebateId'],
      ];
      for (const [body, path] of cases) {
        const error = expectError(await add(alice, chain.id, body), 'VALIDATION_ERROR');
        expect(
          (error.details ?? []).map((d) => d.path),
          JSON.stringify(body),
        ).toContain(path);
      }
    });

    it('refuses a missing chain, a debate not the caller’s, and a parent not in the chain: 404', async () => {
      const root = await debateOf(alice);
      const chain = await chainOf(alice, root);
      const mine = await debateOf(alice);
      const deleted = await debateOf(alice);
      await softDelete(deleted);
      const outside = await debateOf(alice);
      const cases: [string, Record<string, unknown>][] = [
        [MISSING, { debateId: mine, parentDebateId: root }],
        [chain.id, { debateId: MISSING, parentDebateId: root }],
        [chain.id, { debateId: await debateOf(bob), parentDebateId: root }],
        [chain.id, { debateId: deleted, parentDebateId: root }],
        [chain.id, { debateId: mine, parentDebateId: outside }],
        [chain.id, { debateId: mine, parentDebateId: MISSING }],
        [chain.id, { debateId: mine, parentDebateId: mine }],
      ];
      for (const [chainId, body] of cases) {
        expectError(await add(alice, chainId, { ...body, relationship: 'follow_up' }), 'NOT_FOUND');
      }
      expect((await read(alice, chain.id)).nodes).toHaveLength(1);
    });

    it('adds a debate to several chains, once in each', async () => {
      const shared = await debateOf(alice);
      const a = await chainOf(alice, await debateOf(alice));
      const b = await chainOf(alice, shared);
      await addOk(alice, a.id, shared, a.rootDebateId);
      expect((await read(alice, a.id)).nodes.map((n) => n.debateId)).toEqual([a.rootDebateId, shared]);
      expect((await read(alice, b.id)).nodes.map((n) => n.debateId)).toEqual([shared]);
    });

    it('keeps concurrent additions apart: one debate added once, different debates each in its own place', async () => {
      const root = await debateOf(alice);
      const chain = await chainOf(alice, root);
      const contested = await debateOf(alice);
      const sameDebate = await Promise.all(
        Array.from({ length: 8 }, () =>
          add(alice, chain.id, { debateId: contested, parentDebateId: root, relationship: 'follow_up' }),
        ),
      );
      expect(sameDebate.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
      const others = await Promise.all(Array.from({ length: 8 }, () => debateOf(alice)));
      const results = await Promise.all(
        others.map((debateId) =>
          add(alice, chain.id, { debateId, parentDebateId: contested, relationship: 'refinement' }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(others.map(() => 201));
      // Two debates added under each other at once: one of them must be refused.
      const x = await debateOf(alice);
      const y = await debateOf(alice);
      await addOk(alice, chain.id, x, root);
      await addOk(alice, chain.id, y, root);
      const crossed = await Promise.all([
        add(alice, chain.id, { debateId: x, parentDebateId: y, relationship: 'reversal' }),
        add(alice, chain.id, { debateId: y, parentDebateId: x, relationship: 'reversal' }),
      ]);
      expect(crossed.map((r) => r.status)).toEqual([400, 400]);
      const tree = await read(alice, chain.id);
      expect(tree.nodes.map((n) => n.order)).toEqual(tree.nodes.map((_, i) => i));
      expect(new Set(tree.nodes.map((n) => n.debateId)).size).toBe(12);
      expect(tree.nodes.filter((n) => n.parentDebateId === contested)).toHaveLength(8);
      expect((await outbox(chain.id)).filter((r) => r.event === 'chain.updated')).toHaveLength(11);
    });
  });

  describe('DELETE /api/chains/:id', () => {
    it('deletes the chain and keeps its debates: 204, then 404', async () => {
      const root = await debateOf(alice);
      const chain = await chainOf(alice, root);
      const next = await debateOf(alice);
      await addOk(alice, chain.id, next, root);
      const res = await h.request('DELETE', `/api/chains/${chain.id}`, as(alice));
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe('');
      expectError(await h.request('GET', `/api/chains/${chain.id}`, as(alice)), 'NOT_FOUND');
      expectError(await h.request('DELETE', `/api/chains/${chain.id}`, as(alice)), 'NOT_FOUND');
      for (const id of [root, next]) {
        expect((await h.request('GET', `/api/debates/${id}`, as(alice))).status).toBe(200);
      }
      const left = await h.core.db.execute('select 1 from chain_nodes where chain_id = ?', [chain.id]);
      expect(left).toEqual([]);
    });
  });

  describe('GET /api/chains/:id/context', () => {
    it('sums the chain up in order: question, recommendation, confidence and one-liner of each debate', async () => {
      const root = await debateOf(alice, 'Should we open a second office in Lisbon?');
      const chain = await chainOf(alice, root, 'Lisbon');
      const next = await debateOf(alice, 'Should the office open in Alfama?', {
        recommendation: 'DEFER',
        confidence: 0.55,
        oneLiner: 'Wait for the lease market to cool.',
      });
      const open = await debateOf(alice, 'Should we hire locally?', null);
      await addOk(alice, chain.id, next, root, 'refinement');
      await addOk(alice, chain.id, open, next, 'follow_up');
      const result = await contextOf(alice, chain.id);
      expect(result).toEqual({ chainId: chain.id, context: expect.any(String), nodes: 3, truncated: false });
      expect(result.context.split('\n')).toEqual([
        'Earlier decisions of the chain "Lisbon", oldest first:',
        '#1 (first decision) Should we open a second office in Lisbon?',
        '   Verdict: PROCEED (72% confidence): Open it, but lease short.',
        '#2 (refinement of #1) Should the office open in Alfama?',
        '   Verdict: DEFER (55% confidence): Wait for the lease market to cool.',
        '#3 (follow-up of #2) Should we hire locally?',
        '   Verdict: no verdict (pending)',
      ]);
    });

    it(`stays within ${CHAIN_CONTEXT_MAX} characters however long the chain, the newest debates and the root kept`, async () => {
      const long = (n: number) =>
        `Should we take step ${n}? ${'Consider every cost and every risk. '.repeat(55)}`;
      const root = await debateOf(alice, long(0));
      const chain = await chainOf(alice, root, 'n'.repeat(CHAIN_NAME_MAX));
      let parent = root;
      for (let n = 1; n < 40; n++) {
        const debateId = await debateOf(alice, long(n), {
          recommendation: 'PROCEED',
          confidence: 0.6,
          oneLiner: `Step ${n} is worth it. ${'Because. '.repeat(30)}`.slice(0, 300),
        });
        await addOk(alice, chain.id, debateId, parent);
        parent = debateId;
      }
      const result = await contextOf(alice, chain.id);
      expect(result.context.length).toBeLessThanOrEqual(CHAIN_CONTEXT_MAX);
      expect(result.truncated).toBe(true);
      expect(result.nodes).toBeGreaterThan(0);
      expect(result.nodes).toBeLessThan(40);
      // The newest decision is there, and the root (the frame of the chain); the oldest others gave way.
      expect(result.context).toContain('Should we take step 39?');
      expect(result.context).toContain('#1 (first decision) Should we take step 0?');
      expect(result.context).not.toContain('Should we take step 1?');
      expect(result.context).toMatch(/\(\d+ earlier decisions left out\)/);
    });

    it('shortens older texts first when that is enough', async () => {
      const long = (n: number) => `Question ${n}? ${'Detail. '.repeat(200)}`; // ~1,600 characters each
      const root = await debateOf(alice, long(0));
      const chain = await chainOf(alice, root, 'Four long ones');
      let parent = root;
      for (let n = 1; n < 4; n++) {
        const debateId = await debateOf(alice, long(n));
        await addOk(alice, chain.id, debateId, parent);
        parent = debateId;
      }
      const result = await contextOf(alice, chain.id);
      expect(result).toMatchObject({ nodes: 4, truncated: true });
      expect(result.context.length).toBeLessThanOrEqual(CHAIN_CONTEXT_MAX);
      expect(result.context).toContain(long(3).replace(/\s+/g, ' ').trim());
      expect(result.context).toContain('Question 0? Detail.');
      expect(result.context).toContain('…');
    });
  });

  describe('deleted debates', () => {
    it('keeps a soft-deleted debate’s place (debate null) with its children, and leaves it out of the context', async () => {
      const root = await debateOf(alice, 'Should we launch in Spain?');
      const chain = await chainOf(alice, root);
      const middle = await debateOf(alice, 'Should we launch in Madrid first?');
      const leaf = await debateOf(alice, 'Should Madrid get a local team?');
      await addOk(alice, chain.id, middle, root);
      await addOk(alice, chain.id, leaf, middle, 'refinement');
      await softDelete(middle);
      const tree = await read(alice, chain.id);
      expect(shapeOf(tree)).toEqual([
        [root, null, null, 0, 0],
        [middle, root, 'follow_up', 1, 1],
        [leaf, middle, 'refinement', 2, 2],
      ]);
      expect(tree.nodes[1]?.debate).toBeNull();
      const { context, nodes } = await contextOf(alice, chain.id);
      expect(nodes).toBe(2);
      expect(context).not.toContain('Madrid first');
      expect(context).toContain('#2 (refinement) Should Madrid get a local team?');
      // A deleted debate is no parent for a new one.
      const next = await debateOf(alice);
      expectError(
        await add(alice, chain.id, { debateId: next, parentDebateId: middle, relationship: 'follow_up' }),
        'NOT_FOUND',
      );
      // A soft-deleted root keeps the chain.
      await softDelete(root);
      expect((await read(alice, chain.id)).nodes[0]?.debate).toBeNull();
    });

    it('hangs the children of a debate deleted for good from its parent; deleting the root for good deletes the chain', async () => {
      const root = await debateOf(alice);
      const chain = await chainOf(alice, root);
      const middle = await debateOf(alice);
      const [left, right] = [await debateOf(alice), await debateOf(alice)];
      await addOk(alice, chain.id, middle, root);
      await addOk(alice, chain.id, left, middle, 'reversal');
      await addOk(alice, chain.id, right, middle, 'refinement');
      const removed = await h.request('DELETE', `/v1/verdicts/${middle}`, { key: aliceKey.key });
      expect(removed.status, removed.text).toBe(200);
      const tree = await read(alice, chain.id);
      expect(shapeOf(tree)).toEqual([
        [root, null, null, 0, 0],
        [left, root, 'reversal', 1, 1],
        [right, root, 'refinement', 2, 1],
      ]);
      expect(tree.debateCount).toBe(3);
      // The next addition takes the next place still.
      const next = await debateOf(alice);
      expect(shapeOf(await addOk(alice, chain.id, next, right))).toContainEqual([
        next,
        right,
        'follow_up',
        3,
        2,
      ]);
      expect((await h.request('DELETE', `/v1/verdicts/${root}`, { key: aliceKey.key })).status).toBe(200);
      expectError(await h.request('GET', `/api/chains/${chain.id}`, as(alice)), 'NOT_FOUND');
      expect((await h.request('GET', `/api/debates/${left}`, as(alice))).status).toBe(200);
    });
  });

  describe('another user’s chain', () => {
    it('is NOT_FOUND on every route, and stays as it was', async () => {
      const root = await debateOf(alice);
      const chain = await chainOf(alice, root);
      const bobsDebate = await debateOf(bob);
      const bobsKey = await createKey(h, bob, { name: 'bob' });
      for (const credentials of [as(bob), { key: bobsKey.key }]) {
        expectError(await h.request('GET', `/api/chains/${chain.id}`, credentials), 'NOT_FOUND');
        expectError(await h.request('GET', `/api/chains/${chain.id}/context`, credentials), 'NOT_FOUND');
        expectError(
          await h.request('POST', `/api/chains/${chain.id}/debates`, {
            ...credentials,
            body: { debateId: bobsDebate, parentDebateId: root, relationship: 'follow_up' },
          }),
          'NOT_FOUND',
        );
        expectError(await h.request('DELETE', `/api/chains/${chain.id}`, credentials), 'NOT_FOUND');
        const list = ChainList.parse((await h.request('GET', '/api/chains', credentials)).json);
        expect(list.chains.map((c) => c.id)).not.toContain(chain.id);
      }
      // Nor may alice put bob's debate in her chain, or start one from it.
      expectError(
        await add(alice, chain.id, { debateId: bobsDebate, parentDebateId: root, relationship: 'follow_up' }),
        'NOT_FOUND',
      );
      expect(shapeOf(await read(alice, chain.id))).toEqual([[root, null, null, 0, 0]]);
    });
  });
});
