import { ArgumentVotes, CLAIM_ID_MAX, ClaimVotes, type CreatedDebate, claimIdOf } from '@verdict/contracts';
import { debateReaching } from '@verdict/core/testing';
import type { EngineNode } from '@verdict/engine';
import { startTestEngine } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';
import { setPublic, softDelete, storeDebate, storeMessages } from '../../testing/reaction-fixtures.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const PANEL = [
  { round: 1, agent: 'Optimist' },
  { round: 1, agent: 'Skeptic' },
  { round: 2, agent: 'Risk Analyst' },
];

/** Who makes a request: a session cookie, an API key, or nobody. */
type As = { cookie: string } | { key: string } | Record<string, never>;
const anonymous: As = {};

describe('argument votes', () => {
  let h: Harness;
  let owner: TestUser;
  let reader: TestUser;
  let stranger: TestUser;

  const votesOf = (debateId: string, as: As = anonymous) =>
    h.request<ArgumentVotes>('GET', `/api/debates/${debateId}/votes`, as);
  const cast = (debateId: string, body: unknown, as: As) =>
    h.request<ClaimVotes>('POST', `/api/debates/${debateId}/votes`, { ...as, body });
  const unvote = (debateId: string, claimId: string, as: As) =>
    h.request('DELETE', `/api/debates/${debateId}/votes/${claimId}`, as);
  /** A public debate with the PANEL's messages, and their claimIds. */
  const publicDebate = async () => {
    const id = await storeDebate(h, owner, { isPublic: true });
    return { id, claims: await storeMessages(h, id, PANEL) };
  };

  beforeAll(async () => {
    h = await startServer();
    [owner, reader, stranger] = await Promise.all([registerUser(h), registerUser(h), registerUser(h)]);
  });
  afterAll(async () => {
    await h.close();
  });

  it("counts agree and disagree per claim, with each caller's own vote", async () => {
    const { id, claims } = await publicDebate();
    const [first, second] = claims as [string, string, string];

    const ownerVote = await cast(id, { claimId: first, vote: 'agree' }, owner);
    expect(ownerVote.status, ownerVote.text).toBe(200);
    expect(ClaimVotes.parse(ownerVote.json)).toEqual({
      claimId: first,
      agree: 1,
      disagree: 0,
      userVote: 'agree',
    });
    const readerVote = await cast(id, { claimId: first, vote: 'disagree' }, reader);
    expect(readerVote.json).toEqual({ claimId: first, agree: 1, disagree: 1, userVote: 'disagree' });
    expect((await cast(id, { claimId: second, vote: 'agree' }, reader)).json).toEqual({
      claimId: second,
      agree: 1,
      disagree: 0,
      userVote: 'agree',
    });

    const asOwner = await votesOf(id, owner);
    expect(asOwner.status).toBe(200);
    expect(ArgumentVotes.parse(asOwner.json)).toEqual({
      votes: {
        [first]: { agree: 1, disagree: 1, userVote: 'agree' },
        [second]: { agree: 1, disagree: 0, userVote: null },
      },
    });
    expect((await votesOf(id, reader)).json.votes).toEqual({
      [first]: { agree: 1, disagree: 1, userVote: 'disagree' },
      [second]: { agree: 1, disagree: 0, userVote: 'agree' },
    });
    // Claims nobody voted on are left out; a reader signed out sees the counts only.
    const signedOut = await votesOf(id);
    expect(signedOut.status).toBe(200);
    expect(signedOut.json.votes).toEqual({
      [first]: { agree: 1, disagree: 1, userVote: null },
      [second]: { agree: 1, disagree: 0, userVote: null },
    });
    expect((await votesOf(await storeDebate(h, owner, { isPublic: true }))).json).toEqual({ votes: {} });
  });

  it('replaces a vote with the next one, keeps one vote per user, and takes it back on neutral', async () => {
    const { id, claims } = await publicDebate();
    const claimId = claims[0] as string;
    await cast(id, { claimId, vote: 'agree' }, owner);
    expect((await cast(id, { claimId, vote: 'agree' }, reader)).json).toMatchObject({
      agree: 2,
      disagree: 0,
    });
    expect((await cast(id, { claimId, vote: 'disagree' }, reader)).json).toEqual({
      claimId,
      agree: 1,
      disagree: 1,
      userVote: 'disagree',
    });
    expect((await cast(id, { claimId, vote: 'disagree' }, reader)).json).toMatchObject({
      agree: 1,
      disagree: 1,
    });

    const neutral = await cast(id, { claimId, vote: 'neutral' }, reader);
    expect(neutral.status).toBe(200);
    expect(neutral.json).toEqual({ claimId, agree: 1, disagree: 0, userVote: null });
    // Neutral without a vote changes nothing and says so.
    expect((await cast(id, { claimId, vote: 'neutral' }, reader)).json).toEqual(neutral.json);
    await cast(id, { claimId, vote: 'neutral' }, owner);
    expect((await votesOf(id, owner)).json).toEqual({ votes: {} });
    const rows = await h.core.db.execute('select 1 from argument_votes where debate_id = ?', [id]);
    expect(rows).toHaveLength(0);
  });

  it('takes a vote back on DELETE (204), also when there is none to take back', async () => {
    const { id, claims } = await publicDebate();
    const claimId = claims[1] as string;
    const key = (await createKey(h, reader)).key;
    expect((await cast(id, { claimId, vote: 'disagree' }, { key })).json.userVote).toBe('disagree');
    expect((await votesOf(id, reader)).json.votes[claimId]).toEqual({
      agree: 0,
      disagree: 1,
      userVote: 'disagree',
    });

    const removed = await unvote(id, claimId, { key });
    expect(removed.status, removed.text).toBe(204);
    expect(removed.text).toBe('');
    expect((await votesOf(id, reader)).json.votes).toEqual({});
    expect((await unvote(id, claimId, reader)).status).toBe(204);
    // A well-formed claimId the debate never had: nothing to take back, and no error.
    expect((await unvote(id, claimIdOf({ attempt: 1, round: 9, agent: 'Nobody' }), reader)).status).toBe(204);
  });

  it('lets only the owner read and vote on a private debate; others get 403, anonymous readers too', async () => {
    const id = await storeDebate(h, owner);
    const [claimId] = (await storeMessages(h, id, PANEL)) as [string];
    expect((await cast(id, { claimId, vote: 'agree' }, owner)).status).toBe(200);
    expect((await votesOf(id, owner)).json.votes[claimId]).toEqual({
      agree: 1,
      disagree: 0,
      userVote: 'agree',
    });

    expectError(await votesOf(id), 'FORBIDDEN');
    expectError(await votesOf(id, stranger), 'FORBIDDEN');
    expectError(await cast(id, { claimId, vote: 'agree' }, stranger), 'FORBIDDEN');
    expectError(await unvote(id, claimId, stranger), 'FORBIDDEN');
    expectError(await votesOf(id, { key: (await createKey(h, stranger)).key }), 'FORBIDDEN');

    await setPublic(h, id, true);
    expect((await cast(id, { claimId, vote: 'disagree' }, stranger)).json).toMatchObject({
      agree: 1,
      disagree: 1,
    });
    expect((await votesOf(id)).json.votes[claimId]).toEqual({ agree: 1, disagree: 1, userVote: null });
    // Made private again: the stranger's vote is kept (and counted for the owner), but out of their reach.
    await setPublic(h, id, false);
    expect((await votesOf(id, owner)).json.votes[claimId]).toEqual({
      agree: 1,
      disagree: 1,
      userVote: 'agree',
    });
    expectError(await unvote(id, claimId, stranger), 'FORBIDDEN');
  });

  it('answers 404 for a missing or deleted debate, and for a claim the debate does not have', async () => {
    const { id, claims } = await publicDebate();
    const claimId = claims[0] as string;
    await cast(id, { claimId, vote: 'agree' }, reader);
    const elsewhere = await publicDebate();
    const other = await storeMessages(h, elsewhere.id, [{ round: 3, agent: 'Pragmatist' }]);

    for (const unknown of [claimIdOf({ attempt: 1, round: 7, agent: 'Optimist' }), other[0] as string]) {
      for (const vote of ['agree', 'disagree', 'neutral']) {
        expectError(await cast(id, { claimId: unknown, vote }, reader), 'NOT_FOUND');
      }
    }
    // An event that is no argument or rebuttal names no claim, whatever its data says.
    await h.core.db.execute(
      `insert into debate_events (debate_id, attempt, seq, type, data)
       values (?, 1, 99, 'agent.failed', '{"agent": "Ghost", "round": 1, "claimId": "a1-r1-ghost", "reason": "x"}')`,
      [id],
    );
    expectError(await cast(id, { claimId: 'a1-r1-ghost', vote: 'agree' }, reader), 'NOT_FOUND');

    for (const debateId of [MISSING, id]) {
      if (debateId === id) await softDelete(h, id);
      expectError(await votesOf(debateId), 'NOT_FOUND');
      expectError(await votesOf(debateId, owner), 'NOT_FOUND');
      expectError(await cast(debateId, { claimId, vote: 'agree' }, owner), 'NOT_FOUND');
      expectError(await unvote(debateId, claimId, owner), 'NOT_FOUND');
    }
  });

  it('refuses malformed input with 400 and stores nothing', async () => {
    const { id, claims } = await publicDebate();
    const claimId = claims[0] as string;
    for (const body of [
      {},
      { claimId },
      { vote: 'agree' },
      { claimId, vote: 'maybe' },
      { claimId, vote: 'AGREE' },
      { claimId, vote: null },
      { claimId: 42, vote: 'agree' },
      { claimId: '', vote: 'agree' },
      { claimId: claimId.toUpperCase(), vote: 'agree' },
      { claimId: 'r1-a1-optimist', vote: 'agree' },
      { claimId: 'a1-r1-', vote: 'agree' },
      { claimId: 'a1-r1-opti mist', vote: 'agree' },
      { claimId: `a1-r1-${'x'.repeat(CLAIM_ID_MAX)}`, vote: 'agree' },
      { claimId: `a${'1'.repeat(CLAIM_ID_MAX)}-r1-x`, vote: 'agree' },
      { claimId, vote: 'agree', weight: 2 },
    ]) {
      const error = expectError(await cast(id, body, reader), 'VALIDATION_ERROR');
      expect(error.details?.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expectError(await cast('not-a-uuid', { claimId, vote: 'agree' }, reader), 'VALIDATION_ERROR');
    expectError(await votesOf('not-a-uuid'), 'VALIDATION_ERROR');
    expectError(await unvote(id, 'not-a-claim', reader), 'VALIDATION_ERROR');
    expectError(await unvote('not-a-uuid', claimId, reader), 'VALIDATION_ERROR');
    expect((await votesOf(id)).json).toEqual({ votes: {} });
  });

  it('reads a debate id in any letter case', async () => {
    const { id, claims } = await publicDebate();
    const claimId = claims[0] as string;
    expect((await cast(id.toUpperCase(), { claimId, vote: 'agree' }, reader)).status).toBe(200);
    expect((await votesOf(id.toUpperCase(), reader)).json.votes[claimId]?.userVote).toBe('agree');
  });

  it('needs a signed-in caller to vote (401), and valid credentials when some are sent', async () => {
    const { id, claims } = await publicDebate();
    const claimId = claims[0] as string;
    expectError(await cast(id, { claimId, vote: 'agree' }, anonymous), 'UNAUTHORIZED');
    expectError(await unvote(id, claimId, anonymous), 'UNAUTHORIZED');
    expectError(await votesOf(id, { key: 'vrd_not_a_real_key' }), 'UNAUTHORIZED');
    expectError(await cast(id, { claimId, vote: 'agree' }, { cookie: 'expired' }), 'UNAUTHORIZED');
    expect((await votesOf(id)).json).toEqual({ votes: {} });
  });

  it("keeps the votes on an earlier attempt's messages after a retry, still counted and changeable", async () => {
    const { id, claims } = await publicDebate();
    const [voted, unvoted] = claims as [string, string];
    await cast(id, { claimId: voted, vote: 'agree' }, reader);
    // What a retry does to the stored stream: the earlier attempt's events go, the next attempt's come.
    await h.core.db.execute('delete from debate_events where debate_id = ?', [id]);
    await h.core.db.execute('update debates set attempt = 2 where id = ?', [id]);
    const [fresh] = (await storeMessages(h, id, [{ round: 1, agent: 'Optimist', attempt: 2 }])) as [string];
    expect(fresh).toBe('a2-r1-optimist');

    expect((await cast(id, { claimId: fresh, vote: 'disagree' }, reader)).status).toBe(200);
    expect((await votesOf(id, reader)).json.votes).toEqual({
      [voted]: { agree: 1, disagree: 0, userVote: 'agree' },
      [fresh]: { agree: 0, disagree: 1, userVote: 'disagree' },
    });
    expect((await cast(id, { claimId: voted, vote: 'agree' }, owner)).json).toMatchObject({ agree: 2 });
    expect((await cast(id, { claimId: voted, vote: 'neutral' }, reader)).json).toMatchObject({ agree: 1 });
    // A message of the earlier attempt that nobody voted on is gone with its events.
    expectError(await cast(id, { claimId: unvoted, vote: 'agree' }, reader), 'NOT_FOUND');
  });

  it('counts many users voting at once exactly, and one user voting again and again as one vote', async () => {
    const { id, claims } = await publicDebate();
    const claimId = claims[2] as string;
    const voters: TestUser[] = [];
    // One after another: sign-ups beyond a few at once are refused (503) to keep password hashing in check.
    for (let i = 0; i < 30; i++) voters.push(await registerUser(h));
    const votes = await Promise.all(
      voters.map((voter, i) => cast(id, { claimId, vote: i % 3 === 0 ? 'disagree' : 'agree' }, voter)),
    );
    expect(votes.map((v) => v.status)).toEqual(voters.map(() => 200));
    expect((await votesOf(id)).json.votes[claimId]).toEqual({ agree: 20, disagree: 10, userVote: null });

    const changer = voters[0] as TestUser; // voted disagree
    const again = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        cast(id, { claimId, vote: ['agree', 'disagree', 'neutral', 'agree'][i % 4] }, changer),
      ),
    );
    expect(again.map((v) => v.status)).toEqual(again.map(() => 200));
    // Every answer counted the other 29 voters once each, and the changer at most once.
    for (const answer of again) {
      const total = answer.json.agree + answer.json.disagree;
      expect(total).toBe(answer.json.userVote === null ? 29 : 30);
    }
    const final = (await votesOf(id, changer)).json.votes[claimId];
    const rows = await h.core.db.execute<{ vote: string }>(
      'select vote from argument_votes where debate_id = ? and claim_id = ? and user_id = ?',
      [id, claimId, changer.session.user.id],
    );
    expect(rows.length).toBeLessThanOrEqual(1);
    expect(final?.userVote ?? null).toBe(rows[0]?.vote ?? null);
    expect((final?.agree ?? 0) + (final?.disagree ?? 0)).toBe(29 + rows.length);
    expect(final ?? { agree: 20, disagree: 9 }).toMatchObject({
      agree: 20 + (rows[0]?.vote === 'agree' ? 1 : 0),
      disagree: 9 + (rows[0]?.vote === 'disagree' ? 1 : 0),
    });
  });

  it('go with their debate when it is deleted for good', async () => {
    const { id, claims } = await publicDebate();
    await cast(id, { claimId: claims[0] as string, vote: 'agree' }, reader);
    await h.core.db.execute('delete from debates where id = ?', [id]);
    expect(await h.core.db.execute('select 1 from argument_votes where debate_id = ?', [id])).toHaveLength(0);
  });
});

describe('argument votes on a debate the engine ran', () => {
  let h: Harness;
  let engine: EngineNode;

  beforeAll(async () => {
    h = await startServer({ env: { CONCURRENT_DEBATES: '10' } });
    engine = startTestEngine(h.core, { firstTokenMs: 1 }, 2);
  });
  afterAll(async () => {
    await engine.stop();
    await h.close();
  });

  it('takes votes on the claimIds of the arguments and rebuttals it streamed', async () => {
    const owner = await registerUser(h);
    await h.core.billing.grantCredits(owner.session.user.id, 10);
    const created = await h.request<CreatedDebate>('POST', '/api/debates', {
      cookie: owner.cookie,
      body: {
        question: 'Should our bakery start delivering bread to offices?',
        skipCache: true,
        maxRounds: 2,
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.debateId;
    expect((await debateReaching(h.core, id))?.status).toBe('completed');

    const messages = await h.core.db.execute<{
      type: string;
      data: { claimId: string; round: number; agent: string };
    }>(
      `select type, data from debate_events where debate_id = ? and type in ('argument', 'rebuttal') order by seq`,
      [id],
    );
    expect(messages.map((m) => m.type)).toContain('rebuttal');
    for (const { data } of messages) expect(data.claimId).toBe(claimIdOf({ attempt: 1, ...data }));

    for (const [i, { data }] of messages.entries()) {
      const vote = i % 2 === 0 ? 'agree' : 'disagree';
      const res = await h.request<ClaimVotes>('POST', `/api/debates/${id}/votes`, {
        cookie: owner.cookie,
        body: { claimId: data.claimId, vote },
      });
      expect(res.status, res.text).toBe(200);
    }
    const read = await h.request<ArgumentVotes>('GET', `/api/debates/${id}/votes`, { cookie: owner.cookie });
    expect(Object.keys(read.json.votes).sort()).toEqual(messages.map((m) => m.data.claimId).sort());
  });
});
