import { eventually } from '@verdict/core/testing';
import {
  debaterTurnOf,
  type FakeLlmServer,
  type FakeReply,
  type FakeRequest,
  isClassification,
  judgeVerdictJson,
  startFakeLlmServer,
} from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody, registerUser } from './support/api-client.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

/** A claim the debaters cite although no agent made it: the graph must leave it out. */
const MADE_UP = 'a1-r1-nobody';

/** The claims a debater request lists for the round before (`- [a1-r1-cfo] CFO: …`), in order. */
const listedClaims = (request: FakeRequest) =>
  [...JSON.stringify(request.body).matchAll(/\\n- \[(a\d+-r\d+-[a-z0-9-]+)\] /g)].map((m) => m[1] as string);

/**
 * Debaters of round 2 on build on the first claim they were shown that is not their own, rebut the last one,
 * and cite a claim nobody made; round 1 cites nothing. The classifier and the judge answer as usual.
 */
const script = (request: FakeRequest): FakeReply => {
  const turn = debaterTurnOf(request);
  if (turn) {
    if (turn.round === 1) return { text: `${turn.agent} opens with a concrete point.` };
    const own = `a1-r${turn.round - 1}-${turn.agent.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    const others = listedClaims(request).filter((id) => id !== own);
    return {
      text:
        `As argued before [supports ${others[0]}], yet [Rebuts: ${others.at(-1)}] overlooks the cost; ` +
        `see also [supports ${MADE_UP}].`,
    };
  }
  if (isClassification(request)) return { text: 'business' };
  return { text: judgeVerdictJson() };
};

// GET /api/debates/:id/argument-graph through the client generated from the served document, in each mode,
// on debates whose turns come from a fake LLM server that cites claims as the prompt asks.
describe('the argument graph end to end', () => {
  let llm: FakeLlmServer;
  beforeAll(async () => {
    llm = await startFakeLlmServer(script);
  });
  afterAll(async () => {
    await llm?.close();
  });

  describe.each(MODES)('in %s mode', (mode) => {
    let stack: Stack;
    let owner: ProUser;
    let stranger: ProUser;
    let free: ApiClient;
    let debateId: string;
    const graphOf = (client: ApiClient) =>
      client.GET('/api/debates/{id}/argument-graph', { params: { path: { id: debateId } } });

    beforeAll(async () => {
      stack = await startStack(mode, 'graph', {
        ANTHROPIC_API_KEY: 'sk-ant-fake-graph',
        ANTHROPIC_BASE_URL: llm.baseUrls.anthropic,
        APP_URL: 'https://app.verdict.test',
      });
      const freeUser = await registerUser(stack.baseUrl, 'graph-free');
      [owner, stranger] = await Promise.all([
        signUpPro(stack, 'graph-owner'),
        signUpPro(stack, 'graph-other'),
      ]);
      free = apiClient(stack.baseUrl, { cookie: freeUser.cookie });
      const created = expectBody(
        await owner.client.POST('/api/debates', {
          body: {
            question: `Should the ${mode} team adopt an argument map for design reviews?`,
            agentCount: 3,
            maxRounds: 2,
            skipCache: true,
          },
        }),
        201,
      );
      debateId = created.debateId;
      await eventually(
        () => owner.client.GET('/api/debates/{id}', { params: { path: { id: debateId } } }),
        (res) => res.data?.status === 'completed',
        60_000,
      );
    });
    afterAll(async () => {
      await stack?.stop();
    });

    it("is another account's private debate: 404, whatever the plan", async () => {
      expect((await graphOf(stranger.client)).response.status).toBe(404);
      expect((await graphOf(free)).response.status).toBe(404);
    });

    it('gives a Pro owner every claim, rebuts edges from targets and citations, supports edges from citations', async () => {
      const graph = expectBody(await graphOf(owner.client), 200);
      expect(graph).toMatchObject({ debateId, status: 'completed', attempt: 1 });
      expect(graph.claims).toHaveLength(6);
      const firstRound = graph.claims.filter((c) => c.round === 1);
      const secondRound = graph.claims.filter((c) => c.round === 2);
      expect(firstRound.map((c) => c.kind)).toEqual(['argument', 'argument', 'argument']);
      expect(secondRound.map((c) => c.kind)).toEqual(['rebuttal', 'rebuttal', 'rebuttal']);

      // What the turns said, read back as the builder does: the target's claim, then each cited one.
      const idOf = (agent: string, round: number) =>
        graph.claims.find((c) => c.agent === agent && c.round === round)?.claimId as string;
      const expected = new Set<string>();
      for (const claim of secondRound) {
        const shown = firstRound.map((c) => c.claimId).filter((id) => id !== idOf(claim.agent, 1));
        expected.add(`${claim.claimId} ${idOf(claim.targetAgent as string, 1)} rebuts`);
        expected.add(`${claim.claimId} ${shown[0]} supports`);
        expected.add(`${claim.claimId} ${shown.at(-1)} rebuts`);
        expect(claim.content).toContain(`[supports ${shown[0]}]`);
      }
      const edges = graph.edges.map((e) => `${e.from} ${e.to} ${e.kind}`);
      expect(new Set(edges)).toEqual(expected);
      expect(edges).toHaveLength(expected.size);
      expect(graph.edges.some((e) => e.kind === 'supports')).toBe(true);
      expect(JSON.stringify(graph.edges)).not.toContain(MADE_UP);
      expect(graph.claims.every((c) => c.weight.agree === 0 && c.weight.net === 0)).toBe(true);
    });

    it('weighs each claim by the votes cast on it, for a Pro reader of the now public debate', async () => {
      expectBody(
        await owner.client.PATCH('/api/debates/{id}/visibility', {
          params: { path: { id: debateId } },
          body: { isPublic: true },
        }),
        200,
      );
      const { claims } = expectBody(await graphOf(owner.client), 200);
      const [first, second] = claims.map((c) => c.claimId) as [string, string];
      const vote = (user: ProUser, claimId: string, value: 'agree' | 'disagree') =>
        user.client
          .POST('/api/debates/{debateId}/votes', {
            params: { path: { debateId } },
            body: { claimId, vote: value },
          })
          .then((res) => expectBody(res, 200));
      await Promise.all([
        vote(owner, first, 'agree'),
        vote(stranger, first, 'agree'),
        vote(owner, second, 'agree'),
        vote(stranger, second, 'disagree'),
      ]);
      await vote(owner, second, 'disagree');

      // The reader's plan decides: the stranger on Pro reads the owner's public debate's graph.
      const graph = expectBody(await graphOf(stranger.client), 200);
      const weightOf = (claimId: string) => graph.claims.find((c) => c.claimId === claimId)?.weight;
      expect(weightOf(first)).toEqual({ agree: 2, disagree: 0, net: 2 });
      expect(weightOf(second)).toEqual({ agree: 0, disagree: 2, net: -2 });
      expect(graph.claims.filter((c) => c.weight.agree + c.weight.disagree > 0)).toHaveLength(2);
    });

    it('refuses a free reader of the public debate with 402 and where to upgrade', async () => {
      const res = await graphOf(free);
      expect(res.response.status).toBe(402);
      expect(res.error).toEqual({
        error: {
          code: 'BYOK_REQUIRED',
          message:
            'The argument graph heatmap needs the Pro, BYOK Pro or Enterprise plan; this account is on Free',
          requiredPlan: 'pro',
          upgradeUrl: 'https://app.verdict.test/pricing',
        },
      });
    });
  });
});
