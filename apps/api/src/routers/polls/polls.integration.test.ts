import { POLLS_PER_DEBATE_MAX, Poll, PollList } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  type HttpResult,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';
import { setPublic, softDelete, storeDebate } from '../../testing/reaction-fixtures.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const QUESTION = 'Which office should we open first?';
const OPTIONS = ['Lisbon', 'Porto', 'Braga'];

/** Who makes a request: a session cookie, an API key, or nobody. */
type As = { cookie: string } | { key: string } | Record<string, never>;
const anonymous: As = {};

describe('audience polls', () => {
  let h: Harness;
  let owner: TestUser;
  let reader: TestUser;
  let stranger: TestUser;

  const pollsOf = (debateId: string, as: As = anonymous) =>
    h.request<PollList>('GET', `/api/debates/${debateId}/polls`, as);
  const create = (debateId: string, body: unknown, as: As = owner) =>
    h.request<Poll>('POST', `/api/debates/${debateId}/polls`, { ...as, body });
  const vote = (debateId: string, pollId: string, optionId: unknown, as: As) =>
    h.request<Poll>('POST', `/api/debates/${debateId}/polls/${pollId}/vote`, { ...as, body: { optionId } });
  const close = (debateId: string, pollId: string, as: As = owner) =>
    h.request<Poll>('PATCH', `/api/debates/${debateId}/polls/${pollId}`, as);
  const remove = (debateId: string, pollId: string, as: As = owner) =>
    h.request('DELETE', `/api/debates/${debateId}/polls/${pollId}`, as);

  /** A debate of the owner's (public unless said otherwise) with one open poll of OPTIONS. */
  const debateWithPoll = async (options: { isPublic?: boolean } = {}) => {
    const debateId = await storeDebate(h, owner, { isPublic: options.isPublic ?? true });
    const res = await create(debateId, { question: QUESTION, options: OPTIONS });
    expect(res.status, res.text).toBe(201);
    const poll = res.json;
    const [a, b, c] = poll.options.map((o) => o.id) as [string, string, string];
    return { debateId, poll, a, b, c };
  };
  const voteRows = (pollId: string) =>
    h.core.db.execute<{ user_id: string; option_id: string; updated_at: string | Date }>(
      'select * from poll_votes where poll_id = ?',
      [pollId],
    );

  beforeAll(async () => {
    h = await startServer();
    [owner, reader, stranger] = await Promise.all([registerUser(h), registerUser(h), registerUser(h)]);
  });
  afterAll(async () => {
    await h.close();
  });

  it('creates an open poll (201) whose options get ids, every tally 0', async () => {
    const debateId = await storeDebate(h, owner);
    const res = await create(debateId, { question: `  ${QUESTION} `, options: [' Lisbon', 'Porto  '] });
    expect(res.status, res.text).toBe(201);
    const poll = Poll.parse(res.json);
    const [lisbon, porto] = poll.options.map((o) => o.id) as [string, string];
    expect(res.json).toEqual({
      id: poll.id,
      debateId,
      question: QUESTION,
      options: [
        { id: lisbon, label: 'Lisbon' },
        { id: porto, label: 'Porto' },
      ],
      status: 'open',
      createdAt: poll.createdAt,
      closedAt: null,
      tallies: { [lisbon]: 0, [porto]: 0 },
      totalVotes: 0,
      userVote: null,
    });
    expect(lisbon).not.toBe(porto);
    expect(Date.now() - Date.parse(poll.createdAt)).toBeLessThan(60_000);

    const second = await create(debateId, { question: 'And the second?', options: OPTIONS });
    const list = await pollsOf(debateId, owner);
    expect(list.status).toBe(200);
    expect(PollList.parse(list.json).polls).toEqual([res.json, second.json]);
    // Polls of another debate are not its polls.
    expect((await pollsOf(await storeDebate(h, owner), owner)).json).toEqual({ polls: [] });
  });

  it("counts one vote per user, changed by voting again, with each caller's own choice", async () => {
    const { debateId, poll, a, b, c } = await debateWithPoll();
    const first = await vote(debateId, poll.id, a, reader);
    expect(first.status, first.text).toBe(200);
    expect(Poll.parse(first.json)).toMatchObject({
      id: poll.id,
      status: 'open',
      tallies: { [a]: 1, [b]: 0, [c]: 0 },
      totalVotes: 1,
      userVote: a,
    });
    expect(
      (await vote(debateId, poll.id, b, { key: (await createKey(h, stranger)).key })).json,
    ).toMatchObject({
      tallies: { [a]: 1, [b]: 1, [c]: 0 },
      userVote: b,
    });
    expect((await vote(debateId, poll.id, b, reader)).json).toMatchObject({
      tallies: { [a]: 0, [b]: 2, [c]: 0 },
      totalVotes: 2,
      userVote: b,
    });
    expect((await vote(debateId, poll.id, b, reader)).json).toMatchObject({ totalVotes: 2, userVote: b });
    expect(await voteRows(poll.id)).toHaveLength(2);

    const [asOwner, asReader, signedOut] = await Promise.all([
      pollsOf(debateId, owner),
      pollsOf(debateId, reader),
      pollsOf(debateId),
    ]);
    expect(asOwner.json.polls[0]).toMatchObject({ tallies: { [a]: 0, [b]: 2, [c]: 0 }, userVote: null });
    expect(asReader.json.polls[0]).toMatchObject({ totalVotes: 2, userVote: b });
    expect(signedOut.status).toBe(200);
    expect(signedOut.json.polls[0]).toMatchObject({ totalVotes: 2, userVote: null });

    // Each poll of the debate counts its own votes.
    const other = (await create(debateId, { question: 'Open when?', options: ['May', 'June'] })).json;
    await vote(debateId, other.id, other.options[1]?.id, owner);
    const both = (await pollsOf(debateId, owner)).json.polls;
    expect(both.map((p) => [p.totalVotes, p.userVote])).toEqual([
      [2, null],
      [1, other.options[1]?.id],
    ]);
  });

  it('closes a poll: closedAt set, tallies frozen and readable, votes refused with 409 POLL_CLOSED', async () => {
    const { debateId, poll, a, b } = await debateWithPoll();
    await vote(debateId, poll.id, a, reader);
    const closed = await close(debateId, poll.id);
    expect(closed.status, closed.text).toBe(200);
    expect(Poll.parse(closed.json)).toMatchObject({
      status: 'closed',
      tallies: { [a]: 1, [b]: 0 },
      totalVotes: 1,
      userVote: null,
    });
    expect(closed.json.closedAt).not.toBeNull();
    expect(Date.parse(closed.json.closedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(poll.createdAt));

    expectError(await vote(debateId, poll.id, b, stranger), 'POLL_CLOSED');
    expectError(await vote(debateId, poll.id, b, reader), 'POLL_CLOSED'); // not even a change of choice
    expectError(await vote(debateId, poll.id, a, owner), 'POLL_CLOSED');
    const read = await pollsOf(debateId, reader);
    expect(read.json.polls).toEqual([{ ...closed.json, userVote: a }]);

    // Closing again changes nothing, not even closedAt.
    const again = await close(debateId, poll.id);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(closed.json);
  });

  it('deletes a poll with its votes for good (204); after that it is not found', async () => {
    const { debateId, poll, a } = await debateWithPoll();
    const kept = (await create(debateId, { question: 'Keep this one?', options: ['Yes', 'No'] })).json;
    await vote(debateId, poll.id, a, reader);
    const res = await remove(debateId, poll.id);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect((await pollsOf(debateId)).json.polls.map((p) => p.id)).toEqual([kept.id]);
    expect(await voteRows(poll.id)).toHaveLength(0);

    expectError(await remove(debateId, poll.id), 'NOT_FOUND');
    expectError(await close(debateId, poll.id), 'NOT_FOUND');
    expectError(await vote(debateId, poll.id, a, reader), 'NOT_FOUND');
  });

  it("lets only the debate's owner create, close and delete its polls: 403, also on a public debate", async () => {
    const { debateId, poll, a } = await debateWithPoll();
    for (const as of [reader, { key: (await createKey(h, reader)).key }]) {
      expectError(await create(debateId, { question: QUESTION, options: OPTIONS }, as), 'FORBIDDEN');
      expectError(await close(debateId, poll.id, as), 'FORBIDDEN');
      expectError(await remove(debateId, poll.id, as), 'FORBIDDEN');
      // Whether the poll exists is not told to someone who may not manage it.
      expectError(await close(debateId, MISSING, as), 'FORBIDDEN');
      expectError(await remove(debateId, MISSING, as), 'FORBIDDEN');
    }
    // The owner may vote in their own poll like any reader.
    expect((await vote(debateId, poll.id, a, owner)).json).toMatchObject({ totalVotes: 1, userVote: a });
    expect((await pollsOf(debateId)).json.polls).toHaveLength(1);
    expect((await pollsOf(debateId)).json.polls[0]?.status).toBe('open');
  });

  it("keeps a private debate's polls to its owner: everyone else gets 403, signed out too", async () => {
    const { debateId, poll, a } = await debateWithPoll({ isPublic: false });
    expect((await vote(debateId, poll.id, a, owner)).status).toBe(200);
    expect((await pollsOf(debateId, owner)).json.polls[0]).toMatchObject({ totalVotes: 1, userVote: a });

    expectError(await pollsOf(debateId), 'FORBIDDEN');
    expectError(await pollsOf(debateId, stranger), 'FORBIDDEN');
    expectError(await vote(debateId, poll.id, a, stranger), 'FORBIDDEN');
    expectError(await vote(debateId, MISSING, a, stranger), 'FORBIDDEN');
    expectError(await create(debateId, { question: QUESTION, options: OPTIONS }, stranger), 'FORBIDDEN');
    expectError(await close(debateId, poll.id, stranger), 'FORBIDDEN');
    expectError(await remove(debateId, poll.id, stranger), 'FORBIDDEN');

    await setPublic(h, debateId, true);
    expect((await vote(debateId, poll.id, a, stranger)).json.totalVotes).toBe(2);
  });

  it('answers 404 for a missing or deleted debate, an unknown poll, and a poll of another debate', async () => {
    const { debateId, poll, a } = await debateWithPoll();
    const elsewhere = await debateWithPoll();
    for (const [d, p] of [
      [debateId, MISSING],
      [debateId, elsewhere.poll.id],
      [elsewhere.debateId, poll.id],
    ] as const) {
      expectError(await vote(d, p, a, reader), 'NOT_FOUND');
      expectError(await close(d, p), 'NOT_FOUND');
      expectError(await remove(d, p), 'NOT_FOUND');
    }
    expect((await pollsOf(elsewhere.debateId)).json.polls[0]).toMatchObject({
      status: 'open',
      totalVotes: 0,
    });

    await softDelete(h, debateId);
    for (const d of [MISSING, debateId]) {
      expectError(await pollsOf(d), 'NOT_FOUND');
      expectError(await pollsOf(d, owner), 'NOT_FOUND');
      expectError(await create(d, { question: QUESTION, options: OPTIONS }), 'NOT_FOUND');
      expectError(await vote(d, poll.id, a, owner), 'NOT_FOUND');
      expectError(await close(d, poll.id), 'NOT_FOUND');
      expectError(await remove(d, poll.id), 'NOT_FOUND');
    }
  });

  it('refuses malformed polls with 400 and stores nothing; takes 2–6 options of up to 200 characters', async () => {
    const debateId = await storeDebate(h, owner, { isPublic: true });
    const long = 'x'.repeat(201);
    for (const body of [
      {},
      { question: QUESTION },
      { options: OPTIONS },
      { question: '', options: OPTIONS },
      { question: '   ', options: OPTIONS },
      { question: '\u200b\u200b', options: OPTIONS },
      { question: long, options: OPTIONS },
      { question: 42, options: OPTIONS },
      { question: QUESTION, options: ['Only one'] },
      { question: QUESTION, options: [] },
      { question: QUESTION, options: ['1', '2', '3', '4', '5', '6', '7'] },
      { question: QUESTION, options: ['Yes', ''] },
      { question: QUESTION, options: ['Yes', ' \u200b '] },
      { question: QUESTION, options: ['Yes', long] },
      { question: QUESTION, options: ['Yes', 'No', 'yes '] },
      { question: QUESTION, options: 'Yes, No' },
      { question: QUESTION, options: [1, 2] },
      { question: QUESTION, options: [{ label: 'Yes' }, { label: 'No' }] },
      { question: QUESTION, options: OPTIONS, closed: true },
    ]) {
      const error = expectError(await create(debateId, body), 'VALIDATION_ERROR');
      expect(error.details?.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expectError(await create('not-a-uuid', { question: QUESTION, options: OPTIONS }), 'VALIDATION_ERROR');
    expect((await pollsOf(debateId)).json).toEqual({ polls: [] });

    const widest = {
      question: 'q'.repeat(200),
      options: Array.from({ length: 6 }, (_, i) => `${i}`.repeat(200)),
    };
    const ok = await create(debateId, widest);
    expect(ok.status, ok.text).toBe(201);
    expect(ok.json.options.map((o) => o.label)).toEqual(widest.options);
    expect(Object.keys(ok.json.tallies)).toHaveLength(6);
    expect((await create(debateId, { question: 'Q', options: ['A', 'B'] })).status).toBe(201);
  });

  it('refuses a vote for anything but an option of that poll with 400, and malformed ids', async () => {
    const { debateId, poll, a } = await debateWithPoll();
    const elsewhere = await debateWithPoll();
    for (const optionId of [elsewhere.a, MISSING, 'Lisbon', '', 1, null, undefined]) {
      expectError(await vote(debateId, poll.id, optionId, reader), 'VALIDATION_ERROR');
    }
    expectError(
      await h.request('POST', `/api/debates/${debateId}/polls/${poll.id}/vote`, {
        cookie: reader.cookie,
        body: { optionId: a, weight: 2 },
      }),
      'VALIDATION_ERROR',
    );
    expectError(await vote(debateId, 'not-a-uuid', a, reader), 'VALIDATION_ERROR');
    expectError(await vote('not-a-uuid', poll.id, a, reader), 'VALIDATION_ERROR');
    expectError(await close(debateId, 'not-a-uuid'), 'VALIDATION_ERROR');
    expectError(await remove(debateId, 'not-a-uuid'), 'VALIDATION_ERROR');
    expectError(await pollsOf('not-a-uuid'), 'VALIDATION_ERROR');
    expect(await voteRows(poll.id)).toHaveLength(0);
    // Ids in capitals are the same ids.
    expect(
      (await vote(debateId.toUpperCase(), poll.id.toUpperCase(), a.toUpperCase(), reader)).json,
    ).toMatchObject({
      totalVotes: 1,
      userVote: a,
    });
  });

  it('needs a signed-in caller for everything but reading a public debate’s polls (401)', async () => {
    const { debateId, poll, a } = await debateWithPoll();
    expectError(await create(debateId, { question: QUESTION, options: OPTIONS }, anonymous), 'UNAUTHORIZED');
    expectError(await vote(debateId, poll.id, a, anonymous), 'UNAUTHORIZED');
    expectError(await close(debateId, poll.id, anonymous), 'UNAUTHORIZED');
    expectError(await remove(debateId, poll.id, anonymous), 'UNAUTHORIZED');
    expectError(await pollsOf(debateId, { key: 'vrd_not_a_real_key' }), 'UNAUTHORIZED');
    expect((await pollsOf(debateId)).json.polls).toHaveLength(1);
    expect(await voteRows(poll.id)).toHaveLength(0);
  });

  it(`refuses a poll past ${POLLS_PER_DEBATE_MAX} per debate (400), counting concurrent creations`, async () => {
    const debateId = await storeDebate(h, owner);
    await h.core.db.execute(
      `insert into polls (debate_id, question, options)
       select ?, 'Poll ' || n, '[]'::jsonb from generate_series(1, ?) n`,
      [debateId, POLLS_PER_DEBATE_MAX - 2],
    );
    const attempts = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        create(debateId, { question: `Late poll ${i}`, options: ['A', 'B'] }),
      ),
    );
    expect(attempts.map((r) => r.status).sort()).toEqual([201, 201, 400, 400, 400]);
    for (const refused of attempts.filter((r) => r.status === 400)) expectError(refused, 'VALIDATION_ERROR');
    expect((await pollsOf(debateId, owner)).json.polls).toHaveLength(POLLS_PER_DEBATE_MAX);
    // Deleting one makes room for another.
    const last = (await pollsOf(debateId, owner)).json.polls.at(-1);
    expect((await remove(debateId, last?.id ?? MISSING)).status).toBe(204);
    expect((await create(debateId, { question: 'Room again', options: ['A', 'B'] })).status).toBe(201);
  });

  it('go with their debate when it is deleted for good', async () => {
    const { debateId, poll, a } = await debateWithPoll();
    await vote(debateId, poll.id, a, reader);
    await h.core.db.execute('delete from debates where id = ?', [debateId]);
    expect(await h.core.db.execute('select 1 from polls where debate_id = ?', [debateId])).toHaveLength(0);
    expect(await voteRows(poll.id)).toHaveLength(0);
  });

  describe('under concurrent voting', () => {
    const voters: TestUser[] = [];

    beforeAll(async () => {
      // One after another: sign-ups beyond a few at once are refused (503) to keep password hashing in check.
      for (let i = 0; i < 30; i++) voters.push(await registerUser(h));
    });

    it('counts 30 users voting at once exactly', async () => {
      const { debateId, poll, a, b, c } = await debateWithPoll();
      const options = [a, b, c];
      const answers = await Promise.all(
        voters.map((voter, i) => vote(debateId, poll.id, options[i % 3], voter)),
      );
      expect(answers.map((r) => r.status)).toEqual(voters.map(() => 200));
      answers.forEach((answer, i) => {
        expect(answer.json.userVote).toBe(options[i % 3]);
      });
      const read = (await pollsOf(debateId)).json.polls[0];
      expect(read).toMatchObject({ tallies: { [a]: 10, [b]: 10, [c]: 10 }, totalVotes: 30 });
    });

    it('keeps one vote for a user voting again and again at once, the one stored', async () => {
      const { debateId, poll, a, b, c } = await debateWithPoll();
      await Promise.all(voters.slice(1).map((voter) => vote(debateId, poll.id, a, voter)));
      const changer = voters[0] as TestUser;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => vote(debateId, poll.id, [a, b, c][i % 3], changer)),
      );
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      for (const answer of answers) expect(answer.json.totalVotes).toBe(30);

      const rows = (await voteRows(poll.id)).filter((row) => row.user_id === changer.session.user.id);
      expect(rows).toHaveLength(1);
      const stored = rows[0]?.option_id as string;
      const read = (await pollsOf(debateId, changer)).json.polls[0];
      expect(read?.userVote).toBe(stored);
      expect(read?.totalVotes).toBe(30);
      expect(read?.tallies).toEqual({
        [a]: 29 + (stored === a ? 1 : 0),
        [b]: stored === b ? 1 : 0,
        [c]: stored === c ? 1 : 0,
      });
    });

    /**
     * What the close answered is final: it counts every accepted vote and nothing else, ever, and every
     * other vote was refused as closed.
     */
    const expectClosedOnTime = async (
      debateId: string,
      pollId: string,
      closed: HttpResult<Poll>,
      answers: HttpResult<Poll>[],
    ) => {
      expect(closed.status, closed.text).toBe(200);
      const accepted = answers.filter((r) => r.status === 200);
      for (const refused of answers.filter((r) => r.status !== 200)) expectError(refused, 'POLL_CLOSED');
      for (const answer of accepted) expect(answer.json.status).toBe('open');
      expect(closed.json.totalVotes).toBe(accepted.length);
      expect((await voteRows(pollId)).length).toBe(accepted.length);
      expect((await pollsOf(debateId)).json.polls[0]).toEqual({ ...closed.json, userVote: null });
      // Stamped once the votes under way were in: no stored vote is later than the poll's closedAt.
      const closedAt = closed.json.closedAt as string;
      const late = (await voteRows(pollId)).filter(
        (row) => new Date(row.updated_at).getTime() > new Date(closedAt).getTime(),
      );
      expect(
        late.map((row) => new Date(row.updated_at).toISOString()),
        `closedAt ${closedAt}`,
      ).toEqual([]);
      return accepted.length;
    };

    it('lands no vote after the close when the close comes amid a burst of votes', async () => {
      const { debateId, poll, a, b } = await debateWithPoll();
      const voting = voters.map((voter, i) => vote(debateId, poll.id, i % 2 ? a : b, voter));
      const [closed, ...answers] = await Promise.all([close(debateId, poll.id), ...voting]);
      await expectClosedOnTime(debateId, poll.id, closed, answers);
    });

    it('lands no vote after the close when the close comes while votes keep arriving', async () => {
      const { debateId, poll, a, b } = await debateWithPoll();
      // Three readers' clients voting one vote after another; the close is sent once six have been answered.
      let answered = 0;
      let sixAnswered: () => void = () => {};
      const sixVotes = new Promise<void>((resolve) => {
        sixAnswered = resolve;
      });
      const stream = async (group: TestUser[]) => {
        const answers: HttpResult<Poll>[] = [];
        for (const [i, voter] of group.entries()) {
          answers.push(await vote(debateId, poll.id, i % 2 ? a : b, voter));
          if (++answered === 6) sixAnswered();
        }
        return answers;
      };
      const closing = sixVotes.then(() => close(debateId, poll.id));
      const [closed, ...streams] = await Promise.all([
        closing,
        stream(voters.slice(0, 10)),
        stream(voters.slice(10, 20)),
        stream(voters.slice(20)),
      ]);
      const accepted = await expectClosedOnTime(debateId, poll.id, closed, streams.flat());
      expect(accepted).toBeGreaterThanOrEqual(6);
      expect(accepted).toBeLessThan(voters.length);
    });
  });
});
