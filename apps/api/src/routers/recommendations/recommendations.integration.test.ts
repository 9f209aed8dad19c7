import type { Recommendations } from '@verdict/contracts';
import { insertStoredDebate } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const DAY = 86_400_000;

describe('GET /api/recommendations', () => {
  let h: Harness;
  let author: TestUser;

  /** A debate written directly: public unless said, created `daysAgo` days ago, with `views`. */
  const debate = (
    owner: TestUser,
    question: string,
    options: {
      isPublic?: boolean;
      daysAgo?: number;
      views?: number;
      deleted?: boolean;
      forkOf?: string;
      status?: 'pending' | 'completed' | 'failed';
    } = {},
  ) =>
    insertStoredDebate(h.core, {
      ownerId: owner.session.user.id,
      question,
      status: options.status ?? 'pending',
      isPublic: options.isPublic ?? true,
      createdAt: new Date(Date.now() - (options.daysAgo ?? 1) * DAY),
      viewCount: options.views ?? 0,
      deleted: options.deleted ?? false,
      forkedFromId: options.forkOf ?? null,
    });
  const recommend = (user: TestUser, query = '') =>
    h.request<Recommendations>('GET', `/api/recommendations${query}`, { cookie: user.cookie });

  beforeAll(async () => {
    h = await startServer();
    author = await registerUser(h);
  });
  afterAll(async () => h.close());

  it('under 3 debates of your own: trending public debates of the last 30 days by views, votes and forks', async () => {
    const reader = await registerUser(h);
    const viewed = await debate(author, 'Should a bakery open on Mondays', { views: 5 });
    const voted = await debate(author, 'Should a bakery sell coffee too', { views: 1 });
    const forked = await debate(author, 'Should a bakery hire a second baker', { views: 0 });
    const quiet = await debate(author, 'Should a bakery change its logo', { views: 0 });
    // 3 argument votes: 2 points each; 2 forks: 3 points each; 5 views: 1 point each.
    const voters = await Promise.all([registerUser(h), registerUser(h), registerUser(h)]);
    for (const voter of voters) {
      await h.core.db.execute(
        `insert into argument_votes (debate_id, claim_id, user_id, vote) values (?, 'a1-r1-advocate', ?, 'agree')`,
        [voted, voter.session.user.id],
      );
    }
    await debate(reader, 'Fork one', { isPublic: false, forkOf: forked });
    await debate(voters[0] as TestUser, 'Fork two', { isPublic: false, forkOf: forked });
    // Never shown: the reader's own, private, deleted, failed, or older than 30 days.
    const own = await debate(reader, 'My own public bakery question', { views: 100 });
    const hidden = [
      own,
      await debate(author, 'A private bakery question', { isPublic: false, views: 100 }),
      await debate(author, 'A deleted bakery question', { deleted: true, views: 100 }),
      await debate(author, 'A failed bakery question', { status: 'failed', views: 100 }),
      await debate(author, 'An old bakery question', { daysAgo: 31, views: 100 }),
    ];
    const res = await recommend(reader, '?limit=20');
    expect(res.status, res.text).toBe(200);
    const ids: string[] = res.json.recommendations.map((r) => r.id);
    for (const id of hidden) expect(ids).not.toContain(id);
    // voted 1 + 6 = 7, forked 6, viewed 5, quiet 0.
    const ranked: string[] = [viewed, voted, forked, quiet];
    expect(ids.filter((id) => ranked.includes(id))).toEqual([voted, forked, viewed, quiet]);
    expect(new Set(res.json.recommendations.map((r) => r.recommendationReason))).toEqual(
      new Set(['Trending on Verdict']),
    );
    expect(res.json.recommendations[0]).toMatchObject({
      question: expect.any(String),
      viewCount: expect.any(Number),
      recommendation: null,
    });
  });

  it('with 3 debates or more: matches of your recurring words first, then trending ones', async () => {
    const reader = await registerUser(h);
    for (const question of [
      'Should we move our Kubernetes clusters to spot instances',
      'Is Kubernetes overkill for a five-person startup',
      'Should our Kubernetes upgrades be automated',
    ]) {
      await debate(reader, question, { isPublic: false });
    }
    const match = await debate(author, 'How should a team run Kubernetes on bare metal', { views: 0 });
    const trendingOnly = await debate(author, 'Should a bakery open a second shop', { views: 50 });
    // Matching words, never shown: the reader's own public one, another's private, deleted or failed one.
    const neverShown = [
      await debate(reader, 'Should our Kubernetes nodes run on ARM', { isPublic: true }),
      await debate(author, 'Kubernetes cost review for the platform team', { isPublic: false }),
      await debate(author, 'Should Kubernetes replace our VMs', { deleted: true }),
      await debate(author, 'Kubernetes or Nomad for the new cluster', { status: 'failed' }),
    ];
    const res = await recommend(reader, '?limit=20');
    expect(res.status, res.text).toBe(200);
    for (const id of neverShown) expect(res.json.recommendations.map((r) => r.id)).not.toContain(id);
    const [first] = res.json.recommendations;
    expect(first).toMatchObject({ id: match, recommendationReason: 'Based on your interests' });
    const topped = res.json.recommendations.find((r) => r.id === trendingOnly);
    expect(topped?.recommendationReason).toBe('Trending on Verdict');
    expect(new Set(res.json.recommendations.map((r) => r.id)).size).toBe(res.json.recommendations.length);
  });

  it('clamps limit to 1–20 instead of refusing it, and refuses what is not a number', async () => {
    const reader = await registerUser(h);
    for (let i = 0; i < 22; i++) await debate(author, `Should a shop stock item number ${i}`, { views: i });
    expect((await recommend(reader, '?limit=0')).json.recommendations).toHaveLength(1);
    expect((await recommend(reader, '?limit=-5')).json.recommendations).toHaveLength(1);
    expect((await recommend(reader, '?limit=1000')).json.recommendations).toHaveLength(20);
    expect((await recommend(reader)).json.recommendations).toHaveLength(10);
    expectError(await recommend(reader, '?limit=many'), 'VALIDATION_ERROR');
    expectError(await h.request('GET', '/api/recommendations'), 'UNAUTHORIZED');
  });
});
