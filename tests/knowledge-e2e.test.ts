import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, expectBody } from './support/api-client.ts';
import { MODES, type Stack, signUpPro, startStack } from './support/stack.ts';

// Decision chains, recommendations and similar debates over HTTP, through the client generated from the served
// document, in each mode (no embedding provider configured).
describe.each(MODES)('decision chains, recommendations and similar debates end to end (%s)', (mode) => {
  let stack: Stack;
  let alice: ApiClient;
  let bob: ApiClient;

  const completed = async (client: ApiClient, question: string) => {
    const { debateId } = expectBody(
      await client.POST('/api/debates', { body: { question, skipCache: true } }),
      201,
    );
    await eventually(
      () => client.GET('/api/debates/{id}', { params: { path: { id: debateId } } }),
      (res) => res.data?.status === 'completed',
      30_000,
    );
    return debateId;
  };

  beforeAll(async () => {
    stack = await startStack(mode, 'know');
    const [first, second] = await Promise.all([signUpPro(stack, 'alice'), signUpPro(stack, 'bob')]);
    alice = first.client;
    bob = second.client;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('builds a chain of decisions and hands its context to the next debate', async () => {
    const root = await completed(alice, 'Should we rewrite the billing service in Go this year?');
    const followUp = await completed(alice, 'Which part of billing should the rewrite start with?');
    const chain = expectBody(
      await alice.POST('/api/chains', { body: { name: 'Billing rewrite', rootDebateId: root } }),
      201,
    );
    expectBody(
      await alice.POST('/api/chains/{id}/debates', {
        params: { path: { id: chain.id } },
        body: { debateId: followUp, parentDebateId: root, relationship: 'follow_up' },
      }),
      201,
    );
    const read = expectBody(await alice.GET('/api/chains/{id}', { params: { path: { id: chain.id } } }), 200);
    expect(read.nodes.map((n) => [n.debateId, n.parentDebateId, n.relationship])).toEqual([
      [root, null, null],
      [followUp, root, 'follow_up'],
    ]);
    const { context } = expectBody(
      await alice.GET('/api/chains/{id}/context', { params: { path: { id: chain.id } } }),
      200,
    );
    expect(context).toContain('rewrite the billing service');
    expect(context.length).toBeLessThanOrEqual(5000);
    // The context is a valid context of a new debate.
    expectBody(
      await alice.POST('/api/debates', {
        body: { question: 'Should the rewrite ship behind a flag?', context },
      }),
      201,
    );
    const listed = expectBody(await alice.GET('/api/chains'), 200);
    expect(listed.chains.map((c) => c.id)).toContain(chain.id);
    const other = await bob.GET('/api/chains/{id}', { params: { path: { id: chain.id } } });
    expect(other.response.status).toBe(404);
    expect(
      (await alice.DELETE('/api/chains/{id}', { params: { path: { id: chain.id } } })).response.status,
    ).toBe(204);
  });

  it("recommends other users' public debates, and finds no similar debates without an embedding provider", async () => {
    const shared = await completed(bob, 'Should our bakery open a second shop downtown?');
    expectBody(
      await bob.PATCH('/api/debates/{id}/visibility', {
        params: { path: { id: shared } },
        body: { isPublic: true },
      }),
      200,
    );
    const { recommendations } = expectBody(
      await alice.GET('/api/recommendations', { params: { query: { limit: 20 } } }),
      200,
    );
    expect(recommendations.map((r) => r.id)).toContain(shared);
    expect(recommendations.find((r) => r.id === shared)?.recommendationReason).toMatch(
      /^(Trending on Verdict|Based on your interests)$/,
    );
    const own = expectBody(await bob.GET('/api/recommendations'), 200);
    expect(own.recommendations.map((r) => r.id)).not.toContain(shared);
    expect(expectBody(await alice.GET('/api/similar', { params: { query: { q: 'bakery' } } }), 200)).toEqual({
      results: [],
    });
  });

  it('searches your own debates, remembers the search, suggests it back and forgets it on request', async () => {
    const mine = await completed(alice, 'Should the design team move to a four-day week?');
    await completed(bob, 'Should the sales team move to a four-day week?');
    const found = expectBody(
      await alice.GET('/api/search', { params: { query: { q: 'four-day week', sort: 'relevance' } } }),
      200,
    );
    expect(found.results.map((r) => r.id)).toEqual([mine]);
    expect(found.total).toBe(1);
    const suggestions = expectBody(await alice.GET('/api/search/suggestions'), 200);
    expect(suggestions.suggestions.map((s) => s.text)).toContain('four-day week');
    expect((await alice.DELETE('/api/search/history')).response.status).toBe(204);
    expect(expectBody(await alice.GET('/api/search/suggestions'), 200).suggestions).toEqual([]);
  });
});
