// An outside project's use of the SDK, type-checked with `tsc --strict` and run by tests/clients-sdk.test.ts
// against a started server: sign-up, key, debate, its streamed events to the verdict, outcome, score.
import {
  createVerdictTRPCClient,
  type DebateStreamEvent,
  type DecisionScore,
  Verdict,
  VerdictError,
} from '@verdict/sdk';

const baseUrl = process.argv[2] ?? '';
const email = `consumer-${Date.now()}@example.com`;
const say = (record: object) => process.stdout.write(`${JSON.stringify(record)}\n`);

// Sign-up over the typed REST client; the session cookie creates the first key.
const anonymous = new Verdict({ baseUrl });
const registered = await anonymous.rest.POST('/api/auth/register', {
  body: { email, password: 'a long enough password 1', name: 'Consumer' },
});
const cookie = registered.response.headers.get('set-cookie')?.split(';')[0] ?? '';
const userId: string = registered.data?.user.id ?? '';
const created = await new Verdict({ baseUrl, headers: { cookie } }).keys.create({ name: 'consumer' });
const key: string = created.key;
say({ step: 'key', prefix: created.keyPrefix, userId });

const client = new Verdict({ baseUrl, apiKey: key });

// A debate, followed to its end: `switch` narrows each event's data.
const debate = await client.debates.create({
  question: 'Should a consumer project adopt the SDK?',
  maxRounds: 1,
});
const seen: DebateStreamEvent['type'][] = [];
let recommendation = '';
for await (const event of client.debates.stream(debate.debateId)) {
  seen.push(event.type);
  switch (event.type) {
    case 'argument':
      if (typeof event.data.content !== 'string') throw new Error('argument without content');
      break;
    case 'verdict':
      recommendation = event.data.recommendation;
      break;
  }
}
say({ step: 'stream', debateId: debate.debateId, events: seen, recommendation });

// The same debate over tRPC, typed end to end from the router's declarations.
const trpc = createVerdictTRPCClient(baseUrl, key);
await client.debates.waitUntilFinished(debate.debateId);
const viaTrpc = await trpc.debates.get.query({ id: debate.debateId });
const status: 'pending' | 'running' | 'paused' | 'completed' | 'failed' = viaTrpc.status;
say({ step: 'trpc', status, agentCount: viaTrpc.agentCount });

// A reconnect after the end: the finished debate answers 204 and the iterator ends at once.
let after = 0;
for await (const _event of client.debates.stream(debate.debateId, { lastEventId: '1000000' })) after++;
say({ step: 'reconnect', eventsAfterEnd: after });

await client.outcomes.record(debate.debateId, { outcomeStatus: 'correct' });
let score: DecisionScore = await client.scores.me();
for (let i = 0; i < 20 && score.totalResolved === 0; i++) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  score = await client.scores.me();
}
say({ step: 'score', totalResolved: score.totalResolved, accuracy: score.accuracyPercentage });

let listed = 0;
for await (const item of client.debates.list({ limit: 1 })) {
  if (item.id) listed++;
}
say({ step: 'list', listed });

try {
  await client.debates.retrieve('00000000-0000-4000-8000-000000000000');
} catch (error) {
  if (!(error instanceof VerdictError)) throw error;
  say({ step: 'error', code: error.code, status: error.status, requestId: error.requestId });
}

// Types that must be refused: a wrong input is a compile error, not `any`.
// @ts-expect-error maxRounds is a number
void (() => client.debates.create({ question: 'Is this typed at all, really?', maxRounds: 'two' }));
// @ts-expect-error the tRPC input's id is a string
void (() => trpc.debates.get.query({ id: 42 }));
// @ts-expect-error no such procedure
void (() => trpc.debates.nope.query());
