import {
  COLLECTION_ITEMS_MAX,
  COLLECTIONS_PER_USER_MAX,
  Collection,
  CollectionItem,
  CollectionList,
  CollectionWithItems,
  type CreatedApiKey,
} from '@verdict/contracts';
import { insertPendingDebate } from '@verdict/core/testing';
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

const detailPaths = (error: { details?: { path: string }[] | undefined }) =>
  (error.details ?? []).map((d) => d.path);

describe('collections', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  let aliceKey: CreatedApiKey;

  const as = (user: TestUser): RequestOptions => ({ cookie: user.cookie });

  const debateOf = async (user: TestUser, question = 'Should the team adopt a four-day working week?') =>
    (await insertPendingDebate(h.core, { ownerId: user.session.user.id, question, agents: 3, rounds: 1 })).id;

  const collectionOf = async (user: TestUser, body: Record<string, unknown> = {}) => {
    const res = await h.request('POST', '/api/collections', {
      ...as(user),
      body: { name: 'Reading list', ...body },
    });
    expect(res.status, res.text).toBe(201);
    return Collection.parse(res.json);
  };

  const add = (user: TestUser, collectionId: string, debateId: string) =>
    h.request('POST', `/api/collections/${collectionId}/items`, { ...as(user), body: { debateId } });

  const addAll = async (user: TestUser, collectionId: string, debateIds: string[]) => {
    for (const debateId of debateIds) {
      const res = await add(user, collectionId, debateId);
      expect(res.status, res.text).toBe(201);
    }
  };

  const read = async (collectionId: string, options: RequestOptions = {}) => {
    const res = await h.request('GET', `/api/collections/${collectionId}`, options);
    expect(res.status, res.text).toBe(200);
    return CollectionWithItems.parse(res.json);
  };

  /** The collection's debates as its owner reads them: [debateId, order] in order. */
  const placesIn = async (user: TestUser, collectionId: string) =>
    (await read(collectionId, as(user))).items.map((item) => [item.debateId, item.order]);

  const reorder = (user: TestUser, collectionId: string, items: unknown) =>
    h.request('PATCH', `/api/collections/${collectionId}/items/reorder`, { ...as(user), body: { items } });

  const makePublic = (debateId: string) =>
    h.core.db.execute('update debates set is_public = true where id = ?', [debateId]);

  beforeAll(async () => {
    h = await startServer();
    [alice, bob] = await Promise.all([registerUser(h), registerUser(h)]);
    aliceKey = await createKey(h, alice, { name: 'collections', config: { rateLimit: 10_000 } });
  });
  afterAll(async () => {
    await h.close();
  });

  describe('POST /api/collections', () => {
    it('creates a private collection by default: 201, trimmed name, description null, no items', async () => {
      const res = await h.request('POST', '/api/collections', { ...as(alice), body: { name: '  Hiring  ' } });
      expect(res.status).toBe(201);
      expect(Object.keys(res.json as object).sort()).toEqual(
        ['createdAt', 'description', 'id', 'isPublic', 'name', 'updatedAt', 'userId'].sort(),
      );
      const created = Collection.parse(res.json);
      expect(created).toMatchObject({
        name: 'Hiring',
        description: null,
        isPublic: false,
        userId: alice.session.user.id,
      });
      expect(created.updatedAt).toBe(created.createdAt);
    });

    it('takes a description and isPublic, with an API key as well as a session', async () => {
      const res = await h.request('POST', '/api/collections', {
        key: aliceKey.key,
        body: { name: 'Public picks', description: 'Debates worth reading', isPublic: true },
      });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ description: 'Debates worth reading', isPublic: true });
    });

    it('accepts a name of 100 characters and a description of 500', async () => {
      const created = await collectionOf(alice, { name: 'n'.repeat(100), description: 'd'.repeat(500) });
      expect(created.name).toHaveLength(100);
      expect(created.description).toHaveLength(500);
    });

    it.each([
      ['no name', {}, 'name'],
      ['an empty name', { name: '' }, 'name'],
      ['a name of spaces', { name: '   ' }, 'name'],
      ['a name of invisible characters', { name: '\u200b\u200b' }, 'name'],
      ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
      ['a number as name', { name: 42 }, 'name'],
      ['a description of 501 characters', { name: 'ok', description: 'd'.repeat(501) }, 'description'],
      ['an empty description', { name: 'ok', description: '' }, 'description'],
      ['isPublic as a string', { name: 'ok', isPublic: 'true' }, 'isPublic'],
      ['isPublic as a number', { name: 'ok', isPublic: 1 }, 'isPublic'],
      ['an unknown field', { name: 'ok', color: 'red' }, ''],
    ])('refuses %s: 400 VALIDATION_ERROR', async (_label, body, path) => {
      const res = await h.request('POST', '/api/collections', { ...as(alice), body });
      const error = expectError(res, 'VALIDATION_ERROR');
      expect(detailPaths(error)).toEqual([path]);
    });

    it(`refuses a collection past ${COLLECTIONS_PER_USER_MAX} per user`, async () => {
      const carol = await registerUser(h);
      await h.core.db.execute(
        `insert into collections (user_id, name) select ?, 'bulk ' || n from generate_series(1, ?) as n`,
        [carol.session.user.id, COLLECTIONS_PER_USER_MAX],
      );
      const res = await h.request('POST', '/api/collections', { ...as(carol), body: { name: 'one more' } });
      expectError(res, 'VALIDATION_ERROR');
      const list = await h.request('GET', '/api/collections', as(carol));
      expect(CollectionList.parse(list.json).collections).toHaveLength(COLLECTIONS_PER_USER_MAX);
    });
  });

  describe('GET /api/collections', () => {
    it("lists the caller's collections only, newest first, without their items", async () => {
      const dave = await registerUser(h);
      const first = await collectionOf(dave, { name: 'first' });
      const second = await collectionOf(dave, { name: 'second' });
      const third = await collectionOf(dave, { name: 'third', isPublic: true });
      await collectionOf(bob, { name: 'not dave' });
      const res = await h.request('GET', '/api/collections', as(dave));
      expect(res.status).toBe(200);
      const { collections } = CollectionList.parse(res.json);
      expect(collections.map((c) => c.id)).toEqual([third.id, second.id, first.id]);
      expect(collections.every((c) => !('items' in c))).toBe(true);
    });

    it('answers an empty list to a user without collections', async () => {
      const erin = await registerUser(h);
      const res = await h.request('GET', '/api/collections', { cookie: erin.cookie });
      expect(res.json).toEqual({ collections: [] });
    });
  });

  describe('GET /api/collections/:id', () => {
    it('shows its owner every debate, in order, with a summary of each', async () => {
      const collection = await collectionOf(alice);
      const q1 = 'Should we rewrite the billing service in Rust this quarter?';
      const d1 = await debateOf(alice, q1);
      const d2 = await debateOf(alice);
      await addAll(alice, collection.id, [d1, d2]);
      const got = await read(collection.id, as(alice));
      expect(got.items).toHaveLength(2);
      expect(got.items[0]).toMatchObject({
        debateId: d1,
        order: 0,
        debate: { id: d1, question: q1, status: 'pending', mode: 'fast' },
      });
      expect(got.items[1]).toMatchObject({ debateId: d2, order: 1 });
      expect(Date.parse(got.items[0]?.debate.createdAt ?? '')).not.toBeNaN();
    });

    it('refuses a private collection to another user and to an anonymous reader: 403 FORBIDDEN', async () => {
      const collection = await collectionOf(alice);
      expectError(await h.request('GET', `/api/collections/${collection.id}`, as(bob)), 'FORBIDDEN');
      expectError(await h.request('GET', `/api/collections/${collection.id}`), 'FORBIDDEN');
    });

    it('lets anyone read a public collection, without credentials too; others see only its public debates', async () => {
      const collection = await collectionOf(alice, { isPublic: true });
      const [open1, hidden, open2] = [await debateOf(alice), await debateOf(alice), await debateOf(alice)];
      await Promise.all([makePublic(open1), makePublic(open2)]);
      await addAll(alice, collection.id, [open1, hidden, open2]);

      const anonymous = await read(collection.id);
      expect(anonymous.items.map((i) => [i.debateId, i.order])).toEqual([
        [open1, 0],
        [open2, 1],
      ]);
      expect((await read(collection.id, as(bob))).items.map((i) => i.debateId)).toEqual([open1, open2]);
      expect(await placesIn(alice, collection.id)).toEqual([
        [open1, 0],
        [hidden, 1],
        [open2, 2],
      ]);
    });

    it('still refuses bad credentials on a public collection: 401', async () => {
      const collection = await collectionOf(alice, { isPublic: true });
      const res = await h.request('GET', `/api/collections/${collection.id}`, { key: 'vrd_not-a-real-key' });
      expectError(res, 'UNAUTHORIZED');
    });

    it('answers 404 for a missing collection and 400 for an id that is not a UUID', async () => {
      expectError(await h.request('GET', `/api/collections/${MISSING}`, as(alice)), 'NOT_FOUND');
      expectError(await h.request('GET', `/api/collections/${MISSING}`), 'NOT_FOUND');
      expectError(await h.request('GET', '/api/collections/not-a-uuid', as(alice)), 'VALIDATION_ERROR');
    });

    it('reads an id in upper case as the same collection', async () => {
      const collection = await collectionOf(alice);
      const got = await read(collection.id.toUpperCase(), as(alice));
      expect(got.id).toBe(collection.id);
    });
  });

  describe('PATCH /api/collections/:id', () => {
    const patch = (user: TestUser, id: string, body: unknown) =>
      h.request('PATCH', `/api/collections/${id}`, { ...as(user), body });

    it('changes the fields sent and keeps the others; null clears the description', async () => {
      const collection = await collectionOf(alice, { description: 'before' });
      const renamed = await patch(alice, collection.id, { name: 'After' });
      expect(renamed.status).toBe(200);
      expect(renamed.json).toMatchObject({ name: 'After', description: 'before', isPublic: false });
      expect(Date.parse(Collection.parse(renamed.json).updatedAt)).toBeGreaterThanOrEqual(
        Date.parse(collection.updatedAt),
      );
      const cleared = await patch(alice, collection.id, { description: null, isPublic: true });
      expect(cleared.json).toMatchObject({ name: 'After', description: null, isPublic: true });
      const got = await read(collection.id);
      expect(got).toMatchObject({ name: 'After', description: null, isPublic: true });
    });

    it('changes nothing for an empty body', async () => {
      const collection = await collectionOf(alice, { name: 'Same' });
      const res = await patch(alice, collection.id, {});
      expect(res.status).toBe(200);
      expect(res.json).toEqual(collection);
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
      ['a null name', { name: null }, 'name'],
      ['a description of 501 characters', { description: 'd'.repeat(501) }, 'description'],
      ['isPublic as a string', { isPublic: 'false' }, 'isPublic'],
      ['isPublic null', { isPublic: null }, 'isPublic'],
      ['an unknown field', { userId: MISSING }, ''],
    ])('refuses %s: 400 VALIDATION_ERROR', async (_label, body, path) => {
      const collection = await collectionOf(alice);
      const error = expectError(await patch(alice, collection.id, body), 'VALIDATION_ERROR');
      expect(detailPaths(error)).toEqual([path]);
    });

    it("refuses another user's collection, public or not (403), and a missing one (404)", async () => {
      const own = await collectionOf(alice);
      const shown = await collectionOf(alice, { isPublic: true });
      expectError(await patch(bob, own.id, { name: 'Mine now' }), 'FORBIDDEN');
      expectError(await patch(bob, shown.id, { isPublic: false }), 'FORBIDDEN');
      expectError(await patch(alice, MISSING, { name: 'x' }), 'NOT_FOUND');
      expect((await read(shown.id)).isPublic).toBe(true);
    });
  });

  describe('DELETE /api/collections/:id', () => {
    it('deletes the collection and its memberships, never the debates: 204', async () => {
      const collection = await collectionOf(alice);
      const debate = await debateOf(alice);
      await addAll(alice, collection.id, [debate]);
      const res = await h.request('DELETE', `/api/collections/${collection.id}`, as(alice));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectError(await h.request('GET', `/api/collections/${collection.id}`, as(alice)), 'NOT_FOUND');
      expect((await h.request('GET', `/api/debates/${debate}`, as(alice))).status).toBe(200);
      const left = await h.core.db.execute('select 1 from collection_items where collection_id = ?', [
        collection.id,
      ]);
      expect(left).toHaveLength(0);
      expectError(await h.request('DELETE', `/api/collections/${collection.id}`, as(alice)), 'NOT_FOUND');
    });

    it("refuses another user's collection (403) and a missing one (404)", async () => {
      const collection = await collectionOf(alice, { isPublic: true });
      expectError(await h.request('DELETE', `/api/collections/${collection.id}`, as(bob)), 'FORBIDDEN');
      expectError(await h.request('DELETE', `/api/collections/${MISSING}`, as(alice)), 'NOT_FOUND');
      await read(collection.id);
    });
  });

  describe('POST /api/collections/:id/items', () => {
    it('appends at the end: 201 with the item, orders 0, 1, 2', async () => {
      const collection = await collectionOf(alice);
      const debates = [await debateOf(alice), await debateOf(alice), await debateOf(alice)];
      const orders: number[] = [];
      for (const debateId of debates) {
        const res = await add(alice, collection.id, debateId);
        expect(res.status, res.text).toBe(201);
        const item = CollectionItem.parse(res.json);
        expect(item.debate.id).toBe(debateId);
        orders.push(item.order);
      }
      expect(orders).toEqual([0, 1, 2]);
      expect(await placesIn(alice, collection.id)).toEqual(debates.map((id, order) => [id, order]));
      const after = await read(collection.id, as(alice));
      expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(collection.updatedAt));
    });

    it('refuses a debate already in the collection: 409 CONFLICT', async () => {
      const collection = await collectionOf(alice);
      const debate = await debateOf(alice);
      await addAll(alice, collection.id, [debate]);
      expectError(await add(alice, collection.id, debate), 'CONFLICT');
      expectError(await add(alice, collection.id, debate.toUpperCase()), 'CONFLICT');
      expect(await placesIn(alice, collection.id)).toEqual([[debate, 0]]);
    });

    it("answers 404 for another user's debate (public or not), a missing one and a soft-deleted one", async () => {
      const collection = await collectionOf(alice);
      const bobs = await debateOf(bob);
      const bobsPublic = await debateOf(bob);
      await makePublic(bobsPublic);
      const gone = await debateOf(alice);
      expect((await h.request('DELETE', `/api/debates/${gone}`, as(alice))).status).toBe(204);
      for (const debateId of [bobs, bobsPublic, MISSING, gone]) {
        expectError(await add(alice, collection.id, debateId), 'NOT_FOUND');
      }
      expect(await placesIn(alice, collection.id)).toEqual([]);
    });

    it("refuses another user's collection (403, even with their own debate) and a missing one (404)", async () => {
      const collection = await collectionOf(alice, { isPublic: true });
      expectError(await add(bob, collection.id, await debateOf(bob)), 'FORBIDDEN');
      expectError(await add(alice, MISSING, await debateOf(alice)), 'NOT_FOUND');
    });

    it.each([
      ['no debateId', {}, 'debateId'],
      ['a debateId that is not a UUID', { debateId: 'abc' }, 'debateId'],
      ['a number as debateId', { debateId: 7 }, 'debateId'],
      ['an unknown field', { debateId: MISSING, order: 0 }, ''],
    ])('refuses %s: 400 VALIDATION_ERROR', async (_label, body, path) => {
      const collection = await collectionOf(alice);
      const res = await h.request('POST', `/api/collections/${collection.id}/items`, { ...as(alice), body });
      expect(detailPaths(expectError(res, 'VALIDATION_ERROR'))).toEqual([path]);
    });

    it('gives concurrent appends distinct places with no gaps', async () => {
      const collection = await collectionOf(alice);
      const debates = await Promise.all(Array.from({ length: 8 }, () => debateOf(alice)));
      const results = await Promise.all(debates.map((debateId) => add(alice, collection.id, debateId)));
      expect(results.map((r) => r.status)).toEqual(debates.map(() => 201));
      const orders = results.map((r) => CollectionItem.parse(r.json).order);
      expect([...orders].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      const places = await placesIn(alice, collection.id);
      expect(places.map(([, order]) => order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      const answered = new Map(
        results.map((r) => [CollectionItem.parse(r.json).debateId, CollectionItem.parse(r.json).order]),
      );
      for (const [debateId, order] of places) expect(answered.get(debateId as string)).toBe(order);
    });

    it('adds one debate once when the same append races itself: one 201, the rest 409', async () => {
      const collection = await collectionOf(alice);
      const debate = await debateOf(alice);
      const results = await Promise.all(Array.from({ length: 5 }, () => add(alice, collection.id, debate)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 201)) expectError(r, 'CONFLICT');
    });

    it(`refuses a debate past ${COLLECTION_ITEMS_MAX} per collection: 400 VALIDATION_ERROR`, async () => {
      const frank = await registerUser(h);
      const collection = await collectionOf(frank);
      await h.core.db.execute(
        `with made as (
           insert into debates (owner_id, question, mode, funding_source, requested_agents, requested_rounds)
           select ?, 'Bulk question number ' || n, 'fast', 'user_credits', 3, 1 from generate_series(1, ?) as n
           returning id)
         insert into collection_items (collection_id, debate_id, position)
         select ?, id, (row_number() over (order by id) - 1)::int from made`,
        [frank.session.user.id, COLLECTION_ITEMS_MAX, collection.id],
      );
      const res = await add(frank, collection.id, await debateOf(frank));
      expect(detailPaths(expectError(res, 'VALIDATION_ERROR'))).toEqual(['debateId']);
      expect((await read(collection.id, as(frank))).items).toHaveLength(COLLECTION_ITEMS_MAX);
    });
  });

  describe('DELETE /api/collections/:id/items/:debateId', () => {
    it('removes the membership only and closes the gap: 204', async () => {
      const collection = await collectionOf(alice);
      const [a, b, c, d] = await Promise.all(Array.from({ length: 4 }, () => debateOf(alice)));
      await addAll(alice, collection.id, [a, b, c, d] as string[]);
      const res = await h.request('DELETE', `/api/collections/${collection.id}/items/${b}`, as(alice));
      expect(res.status).toBe(204);
      expect(await placesIn(alice, collection.id)).toEqual([
        [a, 0],
        [c, 1],
        [d, 2],
      ]);
      expect((await h.request('GET', `/api/debates/${b}`, as(alice))).status).toBe(200);
      const e = await debateOf(alice);
      const appended = await add(alice, collection.id, e);
      expect(CollectionItem.parse(appended.json).order).toBe(3);
      const stored = await h.core.db.execute<{ position: number }>(
        'select position from collection_items where collection_id = ? order by position',
        [collection.id],
      );
      expect(stored.map((r) => r.position)).toEqual([0, 1, 2, 3]);
    });

    it('answers 404 for a debate not in the collection and for a missing collection, 403 for another user', async () => {
      const collection = await collectionOf(alice, { isPublic: true });
      const debate = await debateOf(alice);
      await addAll(alice, collection.id, [debate]);
      const path = `/api/collections/${collection.id}/items`;
      expectError(await h.request('DELETE', `${path}/${MISSING}`, as(alice)), 'NOT_FOUND');
      expectError(await h.request('DELETE', `${path}/${debate}`, as(bob)), 'FORBIDDEN');
      expectError(
        await h.request('DELETE', `/api/collections/${MISSING}/items/${debate}`, as(alice)),
        'NOT_FOUND',
      );
      expectError(await h.request('DELETE', `${path}/not-a-uuid`, as(alice)), 'VALIDATION_ERROR');
      expect(await placesIn(alice, collection.id)).toEqual([[debate, 0]]);
    });
  });

  describe('PATCH /api/collections/:id/items/reorder', () => {
    const threeItems = async () => {
      const collection = await collectionOf(alice);
      const debates = [await debateOf(alice), await debateOf(alice), await debateOf(alice)];
      await addAll(alice, collection.id, debates);
      return { collection, debates: debates as [string, string, string] };
    };

    it('puts every debate in its new place and answers the collection in that order', async () => {
      const { collection, debates } = await threeItems();
      const [a, b, c] = debates;
      const res = await reorder(alice, collection.id, [
        { debateId: a, order: 2 },
        { debateId: b, order: 0 },
        { debateId: c.toUpperCase(), order: 1 },
      ]);
      expect(res.status, res.text).toBe(200);
      const answered = CollectionWithItems.parse(res.json);
      expect(answered.items.map((i) => [i.debateId, i.order])).toEqual([
        [b, 0],
        [c, 1],
        [a, 2],
      ]);
      expect(await placesIn(alice, collection.id)).toEqual([
        [b, 0],
        [c, 1],
        [a, 2],
      ]);
      expect(Date.parse(answered.updatedAt)).toBeGreaterThanOrEqual(Date.parse(collection.updatedAt));
    });

    it.each([
      [
        'a debate left out (partial reorder)',
        (d: string[]) => [
          { debateId: d[0], order: 0 },
          { debateId: d[1], order: 1 },
        ],
        ['items'],
      ],
      [
        'a debate not in the collection',
        (d: string[]) => [
          { debateId: d[0], order: 0 },
          { debateId: d[1], order: 1 },
          { debateId: d[2], order: 2 },
          { debateId: MISSING, order: 3 },
        ],
        ['items.3.debateId', 'items.3.order'],
      ],
      [
        'a gap in the orders',
        (d: string[]) => [
          { debateId: d[0], order: 0 },
          { debateId: d[1], order: 1 },
          { debateId: d[2], order: 5 },
        ],
        ['items.2.order'],
      ],
    ])('refuses %s: 400 VALIDATION_ERROR, order unchanged', async (_label, items, paths) => {
      const { collection, debates } = await threeItems();
      const error = expectError(await reorder(alice, collection.id, items(debates)), 'VALIDATION_ERROR');
      expect(detailPaths(error)).toEqual(paths);
      expect(await placesIn(alice, collection.id)).toEqual(debates.map((id, order) => [id, order]));
    });

    it.each([
      [
        'the same debate twice',
        (d: string[]) => [
          { debateId: d[0], order: 0 },
          { debateId: d[0], order: 1 },
          { debateId: d[2], order: 2 },
        ],
        ['items.1.debateId'],
      ],
      [
        'the same order twice',
        (d: string[]) => [
          { debateId: d[0], order: 0 },
          { debateId: d[1], order: 0 },
          { debateId: d[2], order: 2 },
        ],
        ['items.1.order'],
      ],
      ['a negative order', (d: string[]) => [{ debateId: d[0], order: -1 }], ['items.0.order']],
      ['a fractional order', (d: string[]) => [{ debateId: d[0], order: 0.5 }], ['items.0.order']],
      ['an order as a string', (d: string[]) => [{ debateId: d[0], order: '0' }], ['items.0.order']],
      ['a debateId that is not a UUID', () => [{ debateId: 'nope', order: 0 }], ['items.0.debateId']],
      [
        'an unknown field in an item',
        (d: string[]) => [{ debateId: d[0], order: 0, pinned: true }],
        ['items.0'],
      ],
      ['no items', () => [], ['items']],
      ['items that are not an array', () => ({}), ['items']],
    ])('refuses %s before looking at the collection: 400 VALIDATION_ERROR', async (_label, items, paths) => {
      const { collection, debates } = await threeItems();
      const error = expectError(await reorder(alice, collection.id, items(debates)), 'VALIDATION_ERROR');
      expect(detailPaths(error)).toEqual(paths);
    });

    it('names the first repeat only, however many there are', async () => {
      const { collection, debates } = await threeItems();
      const items = Array.from({ length: 50 }, () => ({ debateId: debates[0], order: 0 }));
      const error = expectError(await reorder(alice, collection.id, items), 'VALIDATION_ERROR');
      expect(detailPaths(error)).toEqual(['items.1.debateId', 'items.1.order']);
    });

    it('lists at most 20 of the problems it finds in the collection', async () => {
      const { collection } = await threeItems();
      const strangers = Array.from({ length: 60 }, (_, order) => ({ debateId: crypto.randomUUID(), order }));
      const error = expectError(await reorder(alice, collection.id, strangers), 'VALIDATION_ERROR');
      expect(error.details).toHaveLength(20);
      expect(detailPaths(error).slice(0, 2)).toEqual(['items.0.debateId', 'items.1.debateId']);
    });

    it('refuses any order of an empty collection', async () => {
      const collection = await collectionOf(alice);
      const error = expectError(
        await reorder(alice, collection.id, [{ debateId: await debateOf(alice), order: 0 }]),
        'VALIDATION_ERROR',
      );
      expect(detailPaths(error)).toEqual(['items.0.debateId']);
    });

    it("refuses another user's collection (403) and a missing one (404)", async () => {
      const { collection, debates } = await threeItems();
      const items = debates.map((debateId, order) => ({ debateId, order }));
      expectError(await reorder(bob, collection.id, items), 'FORBIDDEN');
      expectError(await reorder(alice, MISSING, items), 'NOT_FOUND');
    });
  });

  describe('debates deleted after they were added', () => {
    it('hides a soft-deleted debate everywhere and keeps the orders of the others dense', async () => {
      const collection = await collectionOf(alice, { isPublic: true });
      const [a, b, c] = [await debateOf(alice), await debateOf(alice), await debateOf(alice)];
      await Promise.all([a, b, c].map(makePublic));
      await addAll(alice, collection.id, [a, b, c]);
      expect((await h.request('DELETE', `/api/debates/${b}`, as(alice))).status).toBe(204);

      expect(await placesIn(alice, collection.id)).toEqual([
        [a, 0],
        [c, 1],
      ]);
      expect((await read(collection.id)).items.map((i) => i.debateId)).toEqual([a, c]);
      // Absent for the writes too: it cannot be removed, named in a reorder, or added again.
      const removal = await h.request('DELETE', `/api/collections/${collection.id}/items/${b}`, as(alice));
      expectError(removal, 'NOT_FOUND');
      const withHidden = [
        { debateId: a, order: 0 },
        { debateId: b, order: 1 },
        { debateId: c, order: 2 },
      ];
      expectError(await reorder(alice, collection.id, withHidden), 'VALIDATION_ERROR');
      expectError(await add(alice, collection.id, b), 'NOT_FOUND');

      const swapped = await reorder(alice, collection.id, [
        { debateId: c, order: 0 },
        { debateId: a, order: 1 },
      ]);
      expect(swapped.status, swapped.text).toBe(200);
      const d = await debateOf(alice);
      expect(CollectionItem.parse((await add(alice, collection.id, d)).json).order).toBe(2);
      expect(await placesIn(alice, collection.id)).toEqual([
        [c, 0],
        [a, 1],
        [d, 2],
      ]);
    });

    it('drops a permanently deleted debate from its collections', async () => {
      const collection = await collectionOf(alice);
      const [a, b] = [await debateOf(alice), await debateOf(alice)];
      await addAll(alice, collection.id, [a, b]);
      await h.core.debates.removePermanently(alice.session.user.id, a);
      expect(await placesIn(alice, collection.id)).toEqual([[b, 0]]);
      const rows = await h.core.db.execute('select 1 from collection_items where debate_id = ?', [a]);
      expect(rows).toHaveLength(0);
    });

    /** The collection's stored places, [debateId, position] by position: hidden debates included. */
    const storedPlaces = async (collectionId: string) =>
      (
        await h.core.db.execute<{ debate_id: string; position: number }>(
          'select debate_id, position from collection_items where collection_id = ? order by position',
          [collectionId],
        )
      ).map((row) => [row.debate_id, row.position]);

    it('closes the gap a debate deleted for good leaves: stored positions stay 0 to n-1 in each collection', async () => {
      const [first, second] = [await collectionOf(alice), await collectionOf(alice)];
      const [a, b, c] = [await debateOf(alice), await debateOf(alice), await debateOf(alice)];
      await addAll(alice, first.id, [a, b, c]);
      await addAll(alice, second.id, [b, c, a]);
      const deleted = await h.request('DELETE', `/v1/verdicts/${b}`, { key: aliceKey.key });
      expect(deleted.status, deleted.text).toBe(200);
      expect(await storedPlaces(first.id)).toEqual([
        [a, 0],
        [c, 1],
      ]);
      expect(await storedPlaces(second.id)).toEqual([
        [c, 0],
        [a, 1],
      ]);
      const d = await debateOf(alice);
      expect(CollectionItem.parse((await add(alice, first.id, d)).json).order).toBe(2);
      expect(await storedPlaces(first.id)).toEqual([
        [a, 0],
        [c, 1],
        [d, 2],
      ]);
    });

    it('closes the gaps the debates of a deleted workspace leave', async () => {
      const carol = await registerUser(h);
      await h.core.accounts.setPlan(carol.session.user.id, 'enterprise');
      const created = await h.request<{ id: string }>('POST', '/api/workspaces', {
        ...as(carol),
        body: { name: 'Doomed team', slug: `doomed-${carol.session.user.id.slice(0, 8)}` },
      });
      expect(created.status, created.text).toBe(201);
      const collection = await collectionOf(carol);
      const [x, y, z, w] = [
        await debateOf(carol),
        await debateOf(carol),
        await debateOf(carol),
        await debateOf(carol),
      ];
      await h.core.db.execute('update debates set workspace_id = ? where id in (?, ?)', [
        created.json.id,
        y,
        w,
      ]);
      await addAll(carol, collection.id, [x, y, z, w]);
      const removed = await h.request('DELETE', `/api/workspaces/${created.json.id}`, as(carol));
      expect(removed.status, removed.text).toBe(204);
      expect(await storedPlaces(collection.id)).toEqual([
        [x, 0],
        [z, 1],
      ]);
    });

    it('keeps positions 0 to n-1, and answers every call, when deletions for good race appends, removals and reorders', async () => {
      const collection = await collectionOf(alice);
      const start = await Promise.all(Array.from({ length: 8 }, () => debateOf(alice)));
      await addAll(alice, collection.id, start);
      const added = [await debateOf(alice), await debateOf(alice)];
      const [gone1, gone2, taken, ...kept] = start as [string, string, string, ...string[]];
      const wholeOrder = [...start].reverse().map((debateId, order) => ({ debateId, order }));
      const answers = await Promise.all([
        h.request('DELETE', `/v1/verdicts/${gone1}`, { key: aliceKey.key }),
        add(alice, collection.id, added[0] as string),
        h.request('DELETE', `/api/collections/${collection.id}/items/${taken}`, as(alice)),
        h.request('DELETE', `/v1/verdicts/${gone2}`, { key: aliceKey.key }),
        reorder(alice, collection.id, wholeOrder),
        add(alice, collection.id, added[1] as string),
      ]);
      // A reorder naming debates that went meanwhile is refused; everything else succeeds.
      const [del1, add1, removal, del2, reordered, add2] = answers.map((r) => r.status);
      expect([del1, add1, removal, del2, add2], answers.map((r) => r.text).join('\n')).toEqual([
        200, 201, 204, 200, 201,
      ]);
      expect([200, 400]).toContain(reordered);
      const places = await storedPlaces(collection.id);
      expect(places.map(([, position]) => position)).toEqual(places.map((_, i) => i));
      expect(places.map(([debateId]) => debateId).sort()).toEqual([...kept, ...added].sort());
    });
  });

  describe('without credentials', () => {
    it.each([
      ['POST', '/api/collections', { name: 'x' }],
      ['GET', '/api/collections', undefined],
      ['PATCH', `/api/collections/${MISSING}`, { name: 'x' }],
      ['DELETE', `/api/collections/${MISSING}`, undefined],
      ['POST', `/api/collections/${MISSING}/items`, { debateId: MISSING }],
      ['DELETE', `/api/collections/${MISSING}/items/${MISSING}`, undefined],
      ['PATCH', `/api/collections/${MISSING}/items/reorder`, { items: [{ debateId: MISSING, order: 0 }] }],
    ])('%s %s answers 401 UNAUTHORIZED', async (method, path, body) => {
      expectError(await h.request(method, path, body === undefined ? {} : { body }), 'UNAUTHORIZED');
    });
  });
});
