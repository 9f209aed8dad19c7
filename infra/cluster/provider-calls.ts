import {
  debaterTurnOf,
  type FakeLlmServer,
  isClassification,
  judgeVerdictJson,
  startFakeLlmServer,
} from '@verdict/engine/testing';
import type { Sql } from './invariants.ts';
import type { Network } from './netns.ts';

/**
 * The provider the cluster's engines call: the real Anthropic SDK against the local fake provider, served on
 * the bridge's own address, which no fault cuts (the faults are between the cluster's hosts). Debaters
 * answer a short argument streamed in pieces, the judge a verdict, the classifier a domain. The fake's record
 * of every request is what `providerCallViolations` reads.
 */
export async function startClusterProvider(network: Network) {
  const fake = await startFakeLlmServer(
    (request) => {
      if (isClassification(request)) return { text: 'engineering' };
      if (debaterTurnOf(request) === null) return { text: judgeVerdictJson() };
      return { text: 'A short, concrete argument with one reason and one risk.', chunkDelayMs: 25 };
    },
    { host: network.gatewayIp },
  );
  const env = { ANTHROPIC_API_KEY: 'sk-ant-cluster-fake', ANTHROPIC_BASE_URL: fake.baseUrls.anthropic };
  return { fake, env };
}

/**
 * The retry rules (packages/engine/src/runner/llm-call.ts, layers.ts): a turn is asked at most 1 + 3 times
 * in one run of it; a run is cut short only when the debate changes hands, which moves its lease epoch.
 */
const ASKS_PER_RUN = 4;

/**
 * No debater turn was asked of the provider again once it was stored (a node that takes a debate over
 * restores its stored turns, it does not ask for them), and no turn was asked more often than the retry
 * rules allow in the runs the debate had (one per lease epoch). `debates` are the ids to check, with the
 * question each was created with (what the provider's requests carry).
 */
export async function providerCallViolations(
  sql: Sql,
  fake: FakeLlmServer,
  debates: string[],
): Promise<string[]> {
  if (debates.length === 0) return [];
  const rows = await sql.execute<{ id: string; question: string; epoch: number }>(
    'select id, question, lease_epoch as epoch from debates where id in (?)',
    [debates],
  );
  const byQuestion = new Map(rows.map((row) => [row.question, row]));
  const epochs = new Map(rows.map((row) => [row.id, Number(row.epoch)]));
  const asks = new Map<string, number[]>();
  for (const request of fake.requests) {
    const turn = debaterTurnOf(request);
    const debate = turn && byQuestion.get(JSON.parse(`"${turn.question}"`) as string);
    if (!turn || !debate) continue;
    const key = `${debate.id} ${turn.round} ${turn.agent}`;
    asks.set(key, [...(asks.get(key) ?? []), request.receivedAt]);
  }
  const stored = await sql.execute<{ debate_id: string; round: number; agent: string; at: Date }>(
    `select debate_id, (data->>'round')::int as round, data->>'agent' as agent, created_at as at
       from debate_events where debate_id in (?) and type in ('argument', 'rebuttal')`,
    [debates],
  );
  const violations: string[] = [];
  for (const turn of stored) {
    const key = `${turn.debate_id} ${turn.round} ${turn.agent}`;
    const times = asks.get(key) ?? [];
    const epoch = epochs.get(turn.debate_id) ?? 1;
    // created_at is its transaction's start: a request after it came from a node that had the turn stored.
    const storedAt = new Date(turn.at).getTime();
    const after = times.filter((t) => t > storedAt + 1).length;
    if (after > 0)
      violations.push(`debate ${turn.debate_id}: ${key} asked ${after} times after it was stored`);
    if (times.length === 0) violations.push(`debate ${turn.debate_id}: ${key} stored but never asked`);
    if (times.length > ASKS_PER_RUN * Math.max(1, epoch)) {
      violations.push(`debate ${turn.debate_id}: ${key} asked ${times.length} times in ${epoch} runs`);
    }
  }
  return violations;
}
