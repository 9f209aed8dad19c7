import type { CreatedApiKey } from '@verdict/contracts';
import { ERROR_CODES, type ErrorCode, errorSchemaName } from '@verdict/contracts';
import { debateReaching, insertPendingDebate, startFakeStripe } from '@verdict/core/testing';
import { createEngineNode, type EngineNode } from '@verdict/engine';
import { startTestEngine } from '@verdict/engine/testing';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../router.ts';
import { billingEnv, PRICE_AMOUNTS } from '../testing/billing-fixtures.ts';
import {
  createKey,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../testing/http-harness.ts';
import {
  isRawSegment,
  type JsonSchema,
  OMIT,
  type RawSegment,
  schemaArbitraries,
} from '../testing/schema-arbitraries.ts';
import { errorComponents } from './components.ts';
import { buildOpenApiDocument } from './document.ts';

/*
 * Schema-driven fuzzing of every operation of the API document the server serves.
 *
 * Why in-process (the http harness) rather than against a spawned API: the requests still cross a real
 * socket into the real Fastify server on a real database, but the test can also set up what the
 * operations act on — debates that completed, failed, or are running on an engine that answers commands,
 * keys of the caller and of another account — so the generated requests reach the handlers and not only
 * the 404s, and it starts in a second instead of a process's several. It all runs twice: on a PostgreSQL
 * schema, then on the embedded default (PGlite in a temporary DATA_DIR, the in-process bus).
 *
 * What is sent: for every operation listed in /openapi.json (the list comes from the document, so a new
 * operation is fuzzed the moment it is documented, and the last test fails if one was not), first every
 * bound of every input (each string length, number, item count at, just inside and just past its limit,
 * one per request, the rest valid), then random requests built by fast-check from the operation's own
 * schemas: all valid; all valid but one parameter, body field or the body as a whole mutated (missing, at
 * or past a bound, of the wrong type, null, empty, invisible-only, with NUL, very long, out of range, a
 * float for an integer, huge, negative, NaN-ish, a bad enum value, a malformed UUID, too many items,
 * unknown or nested fields, malformed JSON, another content type); or every input at random. Requests
 * authenticate with the caller's key (Bearer or X-Api-Key) or session, as the operation's security allows,
 * and some go with no, broken or the wrong kind of credentials, or from a foreign origin. Header values are
 * what HTTP lets a header carry: no CR, LF or NUL (a raw request with such bytes is Node's parser's to
 * refuse, which http/input-hardening.integration.test.ts covers).
 *
 * What each answer must be: below 500; a status the document lists for that operation, or 405/408/431
 * (which the document says any request may get); a JSON error body that is exactly the envelope of one of
 * the codes the document gives for that status (validated with ajv against the document's own schema); a
 * success body valid against the documented success schema; an empty body where the document has none;
 * and a success only for a request the document accepts (its parameters, headers and body as sent, checked
 * with ajv): the server is at least as strict as the document. For the SSE operations a 200 is checked for
 * its status and content type, then the stream is dropped.
 *
 * Size, in each mode: the bounds of every input and RUNS_PER_OPERATION random requests per operation (117
 * operations today: 5,850 random requests), plus the few dozen that set up the fixtures. Each mode's
 * requests take about a minute on a 2-core machine shared with other test runs (PostgreSQL 52 s, embedded
 * PGlite 62 s, measured side by side), much of it in sign-up and sign-in (each valid one hashes a
 * password). FUZZ_RUNS=500 searches deeper (about ten times as long). The
 * random seed differs on every run: on a failure fast-check prints the seed and path that replay it
 * (`fc.assert(…, { seed, path })`) and the shrunk request; the bound requests are fixed, and printed whole.
 */
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 50);
/** Operations whose runs may end the visitor's sessions: the ones after them get fresh ones. */
const ENDS_SESSIONS = new Set(['POST /api/auth/logout']);

/**
 * Statuses the document says any request may get: wrong method, request too slow, headers too large, the
 * database out of reach.
 */
const ANY_REQUEST_STATUSES = [405, 408, 431, 503];

type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
};
type Response = { content?: Record<string, { schema: JsonSchema }> };
type OperationObject = {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, Response>;
};
type Document = {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
};

type Operation = {
  method: string;
  path: string;
  object: OperationObject;
  sse: boolean;
};

type Credential = { label: string; headers: Record<string, string> };
/** A credential of the caller, with the security scheme of the document it answers to. */
type CallerCredential = Credential & { scheme: 'bearerAuth' | 'apiKeyHeader' | 'sessionCookie' };

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string | null };

type FuzzRequest = {
  credential: Credential;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: Body;
};

type Answer = {
  status: number;
  contentType: string;
  text: string;
  pathname: string;
  allow: string | null;
  /** The request as it went on the wire: its query, header values and body. */
  sent: { query: URLSearchParams; headers: Record<string, string>; body: string | undefined };
};

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

function operationsOf(doc: Document): Operation[] {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, object]) => ({
      method,
      path,
      object,
      sse: Object.values(object.responses).some((r) => r.content?.['text/event-stream'] !== undefined),
    })),
  );
  // Deletions last, so the debates and keys the other operations act on are still there for them.
  return operations.sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
}

// The tests are named after the operations while the file is collected, before any server runs: the list
// comes from the builder of the document the server serves, and each mode's first test checks that its
// server serves exactly that document.
const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(appRouter, 'http://localhost:3000'))) as Document;
const operations = operationsOf(doc);

// Billing talks to a local fake Stripe, so checkout and portal routes answer their pages.
const fakeStripe = await startFakeStripe({ amounts: PRICE_AMOUNTS });
afterAll(async () => {
  await fakeStripe.close();
});

/** The server of the mode being fuzzed and what its operations act on (set by that mode's beforeAll). */
let h: Harness;
let fixtures: Fixtures;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
addFormats(ajv);
/** The document's schemas as one JSON Schema (`components#/$defs/…`), its `$ref`s pointing there. */
const toDefs = <T>(node: T): T =>
  JSON.parse(JSON.stringify(node).replaceAll('"#/components/schemas/', '"components#/$defs/'));
ajv.addSchema({ $defs: toDefs(doc.components.schemas) }, 'components');
ajv.addSchema({ $defs: errorComponents() }, 'errors');

const validators = new Map<string, ValidateFunction>();
function validatorFor(op: Operation, status: string, media: string): ValidateFunction {
  const key = `${labelOf(op)} ${status} ${media}`;
  let validate = validators.get(key);
  if (!validate) {
    const schema = op.object.responses[status]?.content?.[media]?.schema;
    if (!schema) throw new Error(`the document gives no ${media} schema for ${key}`);
    validate = ajv.compile(toDefs(schema));
    validators.set(key, validate);
  }
  return validate;
}

/** The envelope of the codes of a status no operation documents (404 of no path, 405, 408, 431). */
function envelopeValidatorFor(status: number): ValidateFunction {
  const codes = (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
    (code) => ERROR_CODES[code].status === status,
  );
  return ajv.compile({ anyOf: codes.map((code) => ({ $ref: `errors#/$defs/${errorSchemaName(code)}` })) });
}

const resolveRef = (ref: string): JsonSchema => {
  const name = ref.replace('#/components/schemas/', '');
  const schema = doc.components.schemas[name];
  if (!schema) throw new Error(`unresolvable ${ref}`);
  return schema;
};
const arbs = schemaArbitraries(resolveRef);

/** Statuses seen per operation, for the coverage check at the end. */
const seen = new Map<string, Map<number, number>>();
const labelOf = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;

/**
 * Both modes are fuzzed alike: the same operations and fixtures on PostgreSQL and on the embedded default
 * (PGlite in a DATA_DIR of its own, the in-process bus, the engine on that core), so every operation's error
 * paths also run on the one connection PGlite has, where a query outside an open transaction waits forever.
 */
describe.each([
  { mode: 'PostgreSQL', database: 'postgres' },
  { mode: 'embedded PGlite', database: 'pglite' },
] as const)('the API on $mode under schema-driven fuzzing', ({ database }) => {
  let mine: { harness: Harness; fixtures: Fixtures } | undefined;
  beforeAll(async () => {
    const harness = await startServer({
      database,
      // The rate limits out of the way (their own tests cover them): a session's budget of 120 requests a
      // minute would otherwise answer every later session request 429, and nothing would reach validation.
      env: {
        STREAM_OPENS_PER_MINUTE: '100000',
        SESSION_REQUESTS_PER_MINUTE: '100000',
        CONCURRENT_DEBATES: '100',
        ...billingEnv(fakeStripe),
      },
    });
    h = harness;
    mine = { harness, fixtures: await setUpFixtures(harness) };
    fixtures = mine.fixtures;
    seen.clear();
  }, 120_000);
  afterAll(async () => {
    await mine?.fixtures.engine.stop();
    await mine?.harness.close();
  });

  it('serves the document the operations are taken from', async () => {
    const served = await h.request<Document>('GET', '/openapi.json');
    expect(served.status).toBe(200);
    expect({ paths: served.json.paths, components: served.json.components }).toEqual({
      paths: doc.paths,
      components: doc.components,
    });
  });

  for (const op of operations) {
    it(
      `answers every generated request to ${labelOf(op)} with a documented status and body`,
      async () => {
        const statuses = new Map<number, number>();
        seen.set(labelOf(op), statuses);
        await fc.assert(
          fc.asyncProperty(requestArbitrary(op), async (request) => {
            const answer = await send(op, request);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            checkAnswer(op, request, answer);
          }),
          { numRuns: RUNS_PER_OPERATION, examples: boundaryExamples(op).map((request) => [request]) },
        );
        if (ENDS_SESSIONS.has(labelOf(op))) await fixtures.renewVisitorSessions();
      },
      60_000 + RUNS_PER_OPERATION * 200,
    );
  }

  it('covers every operation of the document, each past authentication and, where it takes input, into validation', () => {
    expect(operations.length).toBeGreaterThanOrEqual(26);
    expect([...seen.keys()].sort()).toEqual(operations.map(labelOf).sort());
    for (const op of operations) {
      const statuses = seen.get(labelOf(op)) ?? new Map<number, number>();
      const total = [...statuses.values()].reduce((sum, n) => sum + n, 0);
      expect(total, labelOf(op)).toBeGreaterThanOrEqual(RUNS_PER_OPERATION);
      const past = [...statuses.keys()].filter((status) => status !== 401 && status !== 429);
      expect(past, `${labelOf(op)} never got past authentication`).not.toEqual([]);
      // A CORS preflight reads nothing of its path: only an undecodable one (rarely generated) is refused.
      const takesInput =
        op.method !== 'options' &&
        ((op.object.parameters?.length ?? 0) > 0 || op.object.requestBody !== undefined);
      if (takesInput) expect([...statuses.keys()], `${labelOf(op)} never refused input`).toContain(400);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Fixtures: what the operations act on.

type Fixtures = Awaited<ReturnType<typeof setUpFixtures>>;

async function setUpFixtures(harness: Harness) {
  const caller = await registerUser(harness, { password: 'fuzzing the api, carefully' });
  await harness.core.accounts.setPlan(caller.session.user.id, 'pro');
  await harness.core.billing.grantCredits(caller.session.user.id, 500);
  const key = await createKey(harness, caller, { name: 'fuzzer' });
  const spareKeys: CreatedApiKey[] = [];
  for (let i = 0; i < 3; i++) spareKeys.push(await createKey(harness, caller, { name: `spare ${i}` }));
  const revoked = await createKey(harness, caller, { name: 'revoked' });
  await harness.core.apiKeys.revoke(caller.session.user.id, revoked.id);
  const other = await registerUser(harness);
  const otherKey = await createKey(harness, other, { name: 'other' });
  // Sessions the public routes may end (logout): never the caller's own.
  const visitor = await registerUser(harness);
  const visitorSessions = [visitor.cookie];
  for (let i = 0; i < 2; i++) {
    const issued = await harness.core.accounts.signIn(visitor.email, visitor.password, '127.0.0.1');
    if (issued) visitorSessions.push(issued.token);
  }

  const FAILS = 'This debate fails on purpose';
  const debate = (owner: TestUser, question: string) =>
    insertPendingDebate(harness.core, {
      ownerId: owner.session.user.id,
      question,
      agents: 2,
      rounds: 1,
    });
  // A quick engine finishes (or fails) the first ones; a slow one then holds a running debate, so commands
  // reach an engine.
  const quick = startTestEngine(
    harness.core,
    { firstTokenMs: 1, fail: (request) => (request.prompt.includes(FAILS) ? 'server' : null) },
    4,
  );
  const completed = await debate(caller, 'Should the fuzzer find nothing at all today?');
  const failed = await debate(caller, `${FAILS}: should it?`);
  const othersPublic = await debate(other, 'Should another account share this debate?');
  for (const { id } of [completed, failed, othersPublic]) await debateReaching(harness.core, id);
  await quick.stop();
  await harness.core.db.execute('update debates set is_public = true where id in (?, ?)', [
    completed.id,
    othersPublic.id,
  ]);
  // Calls that never answer (and never time out) while the fuzzer runs: its debates stay running.
  const engine: EngineNode = createEngineNode({
    db: harness.core.db,
    bus: harness.core.bus,
    clock: harness.core.clock,
    slots: 50,
    providerKeys: {},
    simulated: { firstTokenMs: 600_000 },
    policy: { timeoutMs: 600_000, retries: 0, backoffMs: 10 },
  });
  engine.start();
  const running = await debate(caller, 'Should this debate stay running while the fuzzer runs?');
  const othersPrivate = await debate(other, 'Should nobody else see this debate?');
  await debateReaching(harness.core, running.id, { statuses: ['running'] });

  // Chains of the caller (its completed debate followed by the failed one) and of the other account.
  const callersChain = await harness.core.chains.create(caller.session.user.id, {
    name: 'Fuzzed chain',
    rootDebateId: completed.id,
  });
  await harness.core.chains.addDebate(caller.session.user.id, {
    id: callersChain.id,
    debateId: failed.id,
    parentDebateId: completed.id,
    relationship: 'follow_up',
  });
  const othersChain = await harness.core.chains.create(other.session.user.id, {
    name: 'Not yours',
    rootDebateId: othersPrivate.id,
  });

  // Workspaces: the caller's (with the visitor as a member) and the other account's. Their owners' plans
  // have workspaces only while they are created and filled, so workspace debates and invites meet the plan
  // gate too.
  const workspace = async (
    owner: TestUser,
    slug: string,
    then: 'pro' | 'byok_pro',
    members: TestUser[] = [],
  ) => {
    await harness.core.accounts.setPlan(owner.session.user.id, 'enterprise');
    const created = await harness.core.workspaces.create(owner.session.user.id, { name: slug, slug });
    for (const member of members) {
      await harness.core.workspaceMembers.invite(owner.session.user.id, {
        id: created.id,
        email: member.email,
        role: 'member',
      });
    }
    await harness.core.accounts.setPlan(owner.session.user.id, then);
    return created;
  };
  const callersWorkspace = await workspace(caller, 'fuzzed-workspace', 'pro', [visitor]);
  const othersWorkspace = await workspace(other, 'not-the-fuzzers', 'byok_pro');
  // Attachments (BYOK Pro to add, so the caller has it only while adding): the caller's and another's.
  const attach = (owner: TestUser, debateId: string) =>
    harness.core.attachments.upload(owner.session.user.id, debateId, {
      filename: 'notes.txt',
      bytes: new TextEncoder().encode('Notes the agents read'),
    });
  await harness.core.accounts.setPlan(caller.session.user.id, 'byok_pro');
  const callersAttachment = await attach(caller, completed.id);
  await harness.core.accounts.setPlan(caller.session.user.id, 'pro');
  const othersAttachment = await attach(other, othersPrivate.id);
  // Scheduled debates of the caller and of the other account.
  const callersSchedule = await harness.core.scheduledDebates.create(caller.session.user.id, {
    question: 'Should the fuzzer ask this every week?',
    frequency: 'weekly',
    dayOfWeek: 1,
    timeOfDay: '09:00',
    timezone: 'UTC',
    mode: 'fast',
  });
  // Schedules are refused on BYOK plans (their runs would have no provider keys): the other account makes
  // its schedule on a credits plan, then goes back to BYOK Pro.
  await harness.core.accounts.setPlan(other.session.user.id, 'pro');
  const othersSchedule = await harness.core.scheduledDebates.create(other.session.user.id, {
    question: 'Should nobody else see this schedule?',
    frequency: 'daily',
    timeOfDay: '09:00',
    timezone: 'UTC',
    mode: 'fast',
  });
  await harness.core.accounts.setPlan(other.session.user.id, 'byok_pro');
  // An invoice of the caller's and one of the other account's, for GET /api/invoices/{id}.
  const invoiceOf = async (owner: TestUser) =>
    (
      await harness.core.db.execute<{ id: string }>(
        `insert into invoices (user_id, type, description, amount_cents, currency, status, metadata)
         values (?, 'credit_pack', '100 credits', 499, 'usd', 'paid', '{"creditAmount":100}') returning id`,
        [owner.session.user.id],
      )
    )[0]?.id as string;
  const invoices = [await invoiceOf(caller), await invoiceOf(other)];
  // Webhooks of the caller (with a delivery) and of the other account. Their host name resolves nowhere, so
  // what the fuzzer queues fails quietly.
  const hookInput = {
    url: 'https://hooks.invalid/verdict',
    events: ['debate.created' as const],
    active: true,
  };
  const callersHook = await harness.core.webhooks.create(caller.session.user.id, hookInput);
  const callersDelivery = await harness.core.webhooks.test(caller.session.user.id, callersHook.id);
  const othersHook = await harness.core.webhooks.create(other.session.user.id, hookInput);
  const othersDelivery = await harness.core.webhooks.test(other.session.user.id, othersHook.id);

  const cookie = (token: string) => ({ cookie: `verdict_session=${token}` });
  const visitorCredentials: Credential[] = visitorSessions.map((token, i) => ({
    label: `visitor session ${i}`,
    headers: cookie(token),
  }));
  return {
    engine,
    caller,
    /** Credentials of the caller, for the operations that require them. */
    credentials: [
      { label: 'caller key (Bearer)', scheme: 'bearerAuth', headers: { authorization: `Bearer ${key.key}` } },
      { label: 'caller key (X-Api-Key)', scheme: 'apiKeyHeader', headers: { 'x-api-key': key.key } },
      { label: 'caller session', scheme: 'sessionCookie', headers: cookie(caller.cookie) },
    ] as CallerCredential[],
    /**
     * The visitor's sessions issued again in place: a logout's run ends some of them, and a later public
     * operation (GET /api/auth/session) with none alive could never get past authentication.
     */
    renewVisitorSessions: async () => {
      for (const credential of visitorCredentials) {
        const issued = await harness.core.accounts.signIn(visitor.email, visitor.password, '127.0.0.1');
        if (issued) credential.headers = cookie(issued.token);
      }
    },
    /** Sessions a public route may end, and no credentials at all. */
    publicCredentials: [
      { label: 'none', headers: {} },
      ...visitorCredentials,
      { label: 'caller key (Bearer)', headers: { authorization: `Bearer ${key.key}` } },
    ] as Credential[],
    broken: [
      { label: 'none', headers: {} },
      { label: 'revoked key', headers: { authorization: `Bearer ${revoked.key}` } },
      { label: 'unknown key', headers: { authorization: 'Bearer vrd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } },
      { label: 'Basic credentials', headers: { authorization: 'Basic dXNlcjpwYXNz' } },
      { label: 'empty Bearer', headers: { authorization: 'Bearer ' } },
      { label: 'overlong key', headers: { 'x-api-key': `vrd_${'k'.repeat(5000)}` } },
      { label: 'unknown session', headers: cookie('A'.repeat(43)) },
      { label: 'undecodable session', headers: cookie('%zz%') },
      {
        label: 'caller session from a foreign page',
        headers: { ...cookie(caller.cookie), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      },
    ] as Credential[],
    /** Ids a path parameter may name, by route family: the caller's, another account's, revoked ones. */
    ids: {
      keys: [...spareKeys.map((k) => k.id), otherKey.id, revoked.id],
      debates: [completed.id, failed.id, running.id, othersPublic.id, othersPrivate.id],
      chains: [callersChain.id, othersChain.id],
      workspaces: [callersWorkspace.id, othersWorkspace.id],
      /** Members a workspace path may name: the caller (its owner), the visitor, someone in no workspace. */
      members: [caller.session.user.id, visitor.session.user.id, other.session.user.id],
      scheduledDebates: [callersSchedule.id, othersSchedule.id],
      invoices,
      webhooks: [callersHook.id, othersHook.id],
      webhookDeliveries: [callersDelivery.deliveryId, othersDelivery.deliveryId],
      attachments: [callersAttachment.id, othersAttachment.id],
    },
    /** Debates the fields of chains may name: the caller's, and one of another account's. */
    debateIds: [completed.id, failed.id, running.id, othersPrivate.id],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Requests.

/**
 * Known values for inputs of these names, next to the generated ones: the caller's own email and password
 * (a sign-in that succeeds, a sign-up that conflicts), an Idempotency-Key that recurs (with the same body or
 * another), provider keys in each documented format and a few broken ones.
 */
function knownValues(name: string, fx: Fixtures): unknown[] {
  if (name === 'email') return [fx.caller.email, fx.caller.email.toUpperCase()];
  if (name === 'password') return [fx.caller.password];
  if (name === 'Idempotency-Key') return ['fuzz-idempotency-key'];
  if (name === 'rootDebateId' || name === 'parentDebateId') return fx.debateIds;
  if (name === 'workspaceId') return fx.ids.workspaces;
  if (name === 'X-Provider-Keys') {
    return [
      'openai:sk-test-1',
      'anthropic:sk-ant-test,google:AIza-test',
      '{"anthropic":"sk-ant-test"}',
      'anthropic:',
      'openai:sk-a,openai:sk-b',
      '{"unknown":"x"}',
      '{"openai":1}',
      '{',
    ];
  }
  return [];
}

type Slot = {
  where: 'path' | 'query' | 'header' | 'body';
  name: string;
  schema: JsonSchema;
  required: boolean;
};

function slotsOf(op: Operation): Slot[] {
  const slots: Slot[] = (op.object.parameters ?? [])
    .filter((p) => p.in !== 'cookie')
    .map((p) => ({
      where: p.in as Slot['where'],
      name: p.name,
      schema: p.schema,
      required: p.required === true,
    }));
  const body = op.object.requestBody?.content['application/json']?.schema;
  if (body) {
    const schema = body.$ref ? resolveRef(body.$ref) : body;
    const required = new Set(schema.required ?? []);
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      slots.push({ where: 'body', name, schema: child, required: required.has(name) });
    }
  }
  return slots;
}

/**
 * The caller's credentials of the schemes the operation's security names, and the others (a session on a
 * route that takes keys only), which go with the broken ones.
 */
function credentialsFor(op: Operation) {
  const schemes = new Set((op.object.security ?? []).flatMap((requirement) => Object.keys(requirement)));
  return {
    accepted: fixtures.credentials.filter((c) => schemes.has(c.scheme)),
    refused: fixtures.credentials.filter((c) => !schemes.has(c.scheme)),
  };
}

/** Route families whose path ids come from their own fixtures; any other path names debates. */
const ID_FAMILIES: [prefix: string, family: keyof Fixtures['ids']][] = [
  ['/api/keys/', 'keys'],
  ['/api/chains/', 'chains'],
  ['/api/workspaces/', 'workspaces'],
  ['/api/scheduled-debates/', 'scheduledDebates'],
  ['/api/invoices/', 'invoices'],
  ['/api/webhooks/', 'webhooks'],
];

/** The ids a path parameter of this operation may name, by route family (and, for members, by name). */
const idsFor = (op: Operation, slot: Slot) =>
  slot.name === 'userId'
    ? fixtures.ids.members
    : slot.name === 'deliveryId'
      ? fixtures.ids.webhookDeliveries
      : slot.name === 'attachmentId'
        ? fixtures.ids.attachments
        : fixtures.ids[ID_FAMILIES.find(([prefix]) => op.path.startsWith(prefix))?.[1] ?? 'debates'];

function validValue(op: Operation, slot: Slot): fc.Arbitrary<unknown> {
  if (slot.where === 'path' && slot.schema.format === 'uuid') {
    const ids = idsFor(op, slot);
    // An id in capitals is the same id (RFC 9562, and the document's pattern).
    const family = [...ids, ...ids.map((id) => id.toUpperCase())];
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...family) },
      { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
    );
  }
  const known = knownValues(slot.name, fixtures);
  const generated = arbs.valid(slot.schema);
  return known.length > 0 ? fc.oneof(generated, fc.constantFrom(...known)) : generated;
}

function brokenValue(slot: Slot): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [
    arbs.boundary(slot.schema),
    arbs.invalid(slot.schema),
    fc.constant(OMIT),
  ];
  if (slot.where === 'path') options.push(arbs.rawSegment);
  return fc.oneof(...options);
}

/** Bodies that are not the operation's object at all. */
const junkBody: fc.Arbitrary<Body> = fc.oneof(
  fc.constantFrom<Body>(
    { kind: 'none' },
    { kind: 'json', value: null },
    { kind: 'json', value: [] },
    { kind: 'json', value: 'text' },
    { kind: 'json', value: 42 },
    { kind: 'json', value: true },
    { kind: 'json', value: {} },
    { kind: 'raw', text: '', contentType: 'application/json' },
    { kind: 'raw', text: '{"question": ', contentType: 'application/json' },
    { kind: 'raw', text: '{"a":1}}', contentType: 'application/json' },
    { kind: 'raw', text: "{'a': 1}", contentType: 'application/json' },
    { kind: 'raw', text: '\u0000', contentType: 'application/json' },
    { kind: 'raw', text: `${'['.repeat(40)}${']'.repeat(40)}`, contentType: 'application/json' },
    { kind: 'raw', text: `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`, contentType: 'application/json' },
    {
      kind: 'raw',
      text: '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}',
      contentType: 'application/json',
    },
    { kind: 'raw', text: '{}', contentType: 'application/json; charset=utf-8' },
    { kind: 'raw', text: '{}', contentType: 'Application/JSON' },
    { kind: 'raw', text: '{}', contentType: 'application/json; charset=utf-16' },
    { kind: 'raw', text: '{}', contentType: 'application/json;charset=' },
    { kind: 'raw', text: '{}', contentType: 'application/merge-patch+json' },
    { kind: 'raw', text: '{}', contentType: 'text/json' },
    { kind: 'raw', text: '--x\r\n\r\n{}\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
    { kind: 'raw', text: '{}', contentType: 'text/plain' },
    { kind: 'raw', text: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { kind: 'raw', text: '{}', contentType: null },
    { kind: 'raw', text: `{"pad":"${'x'.repeat(1_100_000)}"}`, contentType: 'application/json' },
  ),
  fc.jsonValue({ maxDepth: 3 }).map((value): Body => ({ kind: 'json', value })),
);

function requestArbitrary(op: Operation): fc.Arbitrary<FuzzRequest> {
  const slots = slotsOf(op);
  const hasBody = op.object.requestBody !== undefined;
  const bodyMethod = BODY_METHODS.has(op.method);
  const valid = (slot: Slot) =>
    slot.required ? validValue(op, slot) : fc.option(validValue(op, slot), { nil: OMIT, freq: 2 });
  const chaos = (slot: Slot) => fc.oneof(valid(slot), brokenValue(slot));

  // -1: the body as a whole, -2: an unknown extra query parameter, -3: an unknown extra body field.
  const targets = [...slots.keys(), ...(bodyMethod ? [-1] : []), -2, ...(hasBody ? [-3] : [])];
  const plan = fc.oneof(
    { weight: 3, arbitrary: fc.constant({ mode: 'valid' as const, target: NaN }) },
    {
      weight: 5,
      arbitrary: fc.constantFrom(...targets).map((target) => ({ mode: 'mutate' as const, target })),
    },
    { weight: 2, arbitrary: fc.constant({ mode: 'chaos' as const, target: NaN }) },
  );
  const { accepted, refused } = credentialsFor(op);
  const credential =
    accepted.length > 0
      ? fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom<Credential>(...accepted) },
          { weight: 2, arbitrary: fc.constantFrom<Credential>(...fixtures.broken, ...refused) },
        )
      : fc.constantFrom<Credential>(...fixtures.publicCredentials, ...fixtures.broken);

  return plan.chain(({ mode, target }) => {
    const values = slots.map((slot, i) =>
      mode === 'chaos' ? chaos(slot) : mode === 'mutate' && target === i ? brokenValue(slot) : valid(slot),
    );
    const body: fc.Arbitrary<Body | null> =
      target === -1
        ? junkBody
        : mode === 'chaos' && bodyMethod
          ? fc.option(junkBody, { nil: null, freq: 4 })
          : fc.constant(null);
    const extra = fc
      .tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
      .map((pair): [string, unknown][] => [pair]);
    const none = fc.constant<[string, unknown][]>([]);
    return fc
      .record({
        credential,
        values: fc.tuple(...values),
        body,
        extraQuery: target === -2 ? extra : none,
        extraField: target === -3 ? extra : none,
      })
      .map(({ credential, values, body, extraQuery, extraField }) =>
        assemble(op, slots, { credential, values, body, extraQuery, extraField }),
      );
  });
}

/** A request from one value per slot (OMIT leaves it out), a body that replaces the fields, and extras. */
function assemble(
  op: Operation,
  slots: Slot[],
  parts: {
    credential: Credential;
    values: unknown[];
    body: Body | null;
    extraQuery: [string, unknown][];
    extraField: [string, unknown][];
  },
): FuzzRequest {
  const request: FuzzRequest = {
    credential: parts.credential,
    path: {},
    query: {},
    headers: {},
    body: { kind: 'none' },
  };
  const fields: Record<string, unknown> = {};
  slots.forEach((slot, i) => {
    const value = parts.values[i];
    if (slot.where === 'body') {
      if (value !== OMIT) fields[slot.name] = value;
    } else request[slot.where === 'header' ? 'headers' : slot.where][slot.name] = value;
  });
  for (const [name, value] of parts.extraQuery) request.query[`x_${name}`] = value;
  for (const [name, value] of parts.extraField) fields[`x_${name}`] = value;
  if (parts.body) request.body = parts.body;
  else if (op.object.requestBody !== undefined) request.body = { kind: 'json', value: fields };
  return request;
}

/**
 * Every bound of every input, each in its own request with the caller's credentials and the other
 * required inputs valid: what random runs could miss (one value among thousands), always sent first.
 */
function boundaryExamples(op: Operation): FuzzRequest[] {
  const slots = slotsOf(op);
  const credential = credentialsFor(op).accepted[0] ?? fixtures.publicCredentials[0];
  if (!credential) throw new Error('no credential for the examples');
  const base = slots.map((slot) => {
    if (!slot.required) return OMIT;
    if (slot.where === 'path' && slot.schema.format === 'uuid') return idsFor(op, slot)[0];
    return arbs.sampleValid(slot.schema);
  });
  return slots.flatMap((slot, i) =>
    arbs.boundaryValues(slot.schema).map((value) =>
      assemble(op, slots, {
        credential,
        values: base.with(i, value),
        body: null,
        extraQuery: [],
        extraField: [],
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Sending and checking.

const asText = (value: unknown) =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

function pathSegment(value: unknown): string {
  if (value === OMIT) return '';
  if (isRawSegment(value)) return (value as RawSegment).raw;
  // A lone surrogate has no UTF-8 form, so no URL can carry it: it goes as U+FFFD, as any client sends it.
  return encodeURIComponent(asText(value).toWellFormed());
}

function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === OMIT) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, asText(item));
    else params.append(name, value === null ? '' : asText(value));
  }
  return params.toString();
}

/** A header value as a client's bytes: no CR, LF or NUL (HTTP cannot carry them), UTF-8 sent as octets. */
function headerValue(value: unknown): string {
  const sendable = [...asText(value)].filter((char) => !['\r', '\n', '\u0000'].includes(char)).join('');
  return Buffer.from(sendable, 'utf8').toString('latin1');
}

async function send(op: Operation, request: FuzzRequest): Promise<Answer> {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => pathSegment(request.path[name] ?? OMIT));
  const query = queryString(request.query);
  const url = new URL(`${h.baseUrl}${path}${query ? `?${query}` : ''}`);
  const headers: Record<string, string> = { ...request.credential.headers };
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== OMIT) headers[name] = headerValue(value);
  }
  let body: string | undefined;
  if (request.body.kind === 'json') {
    body = JSON.stringify(request.body.value);
    headers['content-type'] = 'application/json';
  } else if (request.body.kind === 'raw') {
    body = request.body.text;
    if (request.body.contentType) headers['content-type'] = request.body.contentType;
  }
  if (!BODY_METHODS.has(op.method)) body = undefined; // fetch sends no body on GET
  const res = await fetch(url, {
    method: op.method.toUpperCase(),
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(20_000),
  });
  const contentType = res.headers.get('content-type') ?? '';
  const answer = {
    status: res.status,
    contentType,
    pathname: url.pathname,
    allow: res.headers.get('allow'),
    sent: { query: url.searchParams, headers, body },
  };
  if (op.sse && res.status === 200) {
    await res.body?.cancel(); // the stream's headers are what is checked; its events have tests of their own
    return { ...answer, text: '' };
  }
  return { ...answer, text: await res.text() };
}

/** A path template as a pattern: a parameter is one segment (maybe empty); a trailing slash is the same path. */
const templatePattern = (template: string) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]*')}/?$`);

/**
 * The operations a request may have addressed. An empty, "." or ".." path parameter (normalised away by the
 * URL parser, as any client's) or one holding a slash can make the path another operation's, or several's
 * (`/api/keys/` is the keys with a trailing slash, or one key with an empty id), or no operation's.
 */
const candidatesFor = (op: Operation, pathname: string) =>
  operations.filter((o) => o.method === op.method && templatePattern(o.path).test(pathname));

function describeRequest(op: Operation, request: FuzzRequest): string {
  const summary = JSON.stringify({ ...request, credential: request.credential.label }, (_, value) =>
    value === OMIT
      ? '<omitted>'
      : typeof value === 'string' && value.length > 200
        ? `${value.slice(0, 200)}…(${value.length})`
        : value,
  );
  return `${labelOf(op)} ${summary}`;
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function checkAnswer(requested: Operation, request: FuzzRequest, answer: Answer) {
  const where = `${describeRequest(requested, request)}\n→ ${answer.pathname} ${answer.status} ${answer.contentType} ${answer.text.slice(0, 500)}`;
  expect(answer.status, where).toBeLessThan(500);
  const candidates = candidatesFor(requested, answer.pathname);
  if (candidates.length === 0) {
    // No operation has this path with this method: the path is unknown (404), or known with others (405).
    // A write from a foreign page on a session is refused before any routing (403), whatever its path.
    // The server routes by segments: a path that only a trailing slash makes another operation's
    // (`/api/debates/polls/` for GET /api/debates/{id}) is, to it, a path it does not have.
    const exactly = (o: Operation) =>
      new RegExp(`^${o.path.replace(/\{\w+\}/g, '[^/]*')}$`).test(answer.pathname);
    const known = operations.some(exactly);
    const knownWithSlash = operations.some((o) => templatePattern(o.path).test(answer.pathname));
    // A path that cannot be decoded (a broken escape, or escapes that are not UTF-8 such as `%C0%AF`) is
    // refused before any routing, whichever path it is.
    const undecodable = isDecodable(answer.pathname) ? [] : [400];
    // Headers past the server's limit are refused as they are read, before any routing (431), as on every
    // operation's path (ANY_REQUEST_STATUSES).
    const expected = [...(known ? [405] : knownWithSlash ? [404, 405] : [404]), ...undecodable, 431];
    const crossSite = request.credential.headers.origin !== undefined && BODY_METHODS.has(requested.method);
    expect([...expected, ...(crossSite ? [403] : [])], `a path no operation has: ${where}`).toContain(
      answer.status,
    );
    if (answer.status === 405) expect(answer.allow, where).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
    expect(problemsOfJson(answer, envelopeValidatorFor(answer.status)), where).toEqual([]);
    return;
  }
  if (answer.status < 300 && candidates.length === 1 && candidates[0] === requested) {
    // The server must be at least as strict as the document: what the document refuses does not succeed.
    const refusals = requestViolations(requested, answer);
    expect(refusals, `the server accepted a request the document refuses: ${where}`).toEqual([]);
  }
  const problems = candidates.map((op) => problemsAgainst(op, answer).map((p) => `${labelOf(op)}: ${p}`));
  // The answer must be what one of the operations the path names documents (almost always just one).
  if (problems.some((list) => list.length === 0)) return;
  expect(problems.flat(), where).toEqual([]);
}

/** What is wrong with the answer as an answer of `op`: nothing, when the document allows it. */
function problemsAgainst(op: Operation, answer: Answer): string[] {
  const documented = op.object.responses[String(answer.status)];
  if (!documented) {
    if (!ANY_REQUEST_STATUSES.includes(answer.status)) return [`undocumented status ${answer.status}`];
    return problemsOfJson(answer, envelopeValidatorFor(answer.status));
  }
  const media = Object.keys(documented.content ?? {});
  if (media.length === 0) return answer.text === '' ? [] : ['a body where the document has none'];
  if (media.includes('text/event-stream') && answer.status === 200) {
    return /^text\/event-stream/.test(answer.contentType) ? [] : [`content type ${answer.contentType}`];
  }
  // A file as stored (an attachment's download): one of the documented types, its bytes not JSON.
  const file = media.find((type) => type !== 'application/json' && answer.contentType.startsWith(type));
  if (answer.status === 200 && file) return [];
  // A page for a person (the unsubscribe link's answers, errors included).
  if (media.includes('text/html')) {
    if (!/^text\/html/.test(answer.contentType)) return [`content type ${answer.contentType}`];
    return answer.text.startsWith('<!doctype html>') ? [] : ['not an HTML page'];
  }
  return problemsOfJson(answer, validatorFor(op, String(answer.status), 'application/json'));
}

/** A JSON body valid against `validate`; an error body exactly the envelope (nothing next to `error`). */
function problemsOfJson(answer: Answer, validate: ValidateFunction): string[] {
  if (!/^application\/json/.test(answer.contentType)) return [`content type ${answer.contentType}`];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return ['a body that is not JSON'];
  }
  const problems: string[] = [];
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (answer.status >= 400 && !(isObject && Object.keys(body as object).join() === 'error')) {
    problems.push('not the envelope');
  }
  if (!validate(body)) problems.push(ajv.errorsText(validate.errors, { separator: '; ' }));
  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// The request against the document.

const requestValidators = new Map<string, ValidateFunction>();
function requestValidator(key: string, schema: JsonSchema): ValidateFunction {
  let validate = requestValidators.get(key);
  if (!validate) {
    validate = ajv.compile(toDefs(schema));
    requestValidators.set(key, validate);
  }
  return validate;
}

/** A parameter's text as the value its schema types it as (form style), or undefined when it is not one. */
function parameterValue(text: string, schema: JsonSchema): unknown {
  const resolved = schema.$ref ? resolveRef(schema.$ref) : schema;
  const type = [resolved.type].flat()[0];
  // A number in decimal digits; whether it is a whole one (1.0 is) is the schema's to say.
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  return text;
}

/**
 * Why the document refuses the request as it was sent (path and query parameters, documented headers, the
 * body and its content type); empty when the document accepts it.
 */
function requestViolations(op: Operation, answer: Answer): string[] {
  const violations: string[] = [];
  const check = (where: string, value: unknown, schema: JsonSchema) => {
    const validate = requestValidator(`${labelOf(op)} ${where}`, schema);
    if (!validate(value)) violations.push(`${where}: ${ajv.errorsText(validate.errors)}`);
  };
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const segments = templatePattern(op.path).exec(answer.pathname);
  const pathValues = new Map<string, string>();
  if (segments) {
    const captured = new RegExp(`^${op.path.replace(/\{\w+\}/g, '([^/]*)')}/?$`).exec(answer.pathname);
    names.forEach((name, i) => {
      const raw = captured?.[i + 1] ?? '';
      try {
        pathValues.set(name ?? '', decodeURIComponent(raw));
      } catch {
        violations.push(`path ${name}: not percent-decodable`);
      }
    });
  }
  for (const parameter of op.object.parameters ?? []) {
    const where = `${parameter.in} ${parameter.name}`;
    let texts: string[];
    if (parameter.in === 'path')
      texts = pathValues.has(parameter.name) ? [pathValues.get(parameter.name) ?? ''] : [];
    else if (parameter.in === 'query') texts = answer.sent.query.getAll(parameter.name);
    else if (parameter.in === 'header') {
      const entry = Object.entries(answer.sent.headers).find(
        ([n]) => n.toLowerCase() === parameter.name.toLowerCase(),
      );
      // What arrives: Fetch strips surrounding spaces and tabs from a header value.
      texts = entry ? [entry[1].replace(/^[ \t]+|[ \t]+$/g, '')] : [];
    } else continue;
    if (texts.length === 0) {
      if (parameter.required) violations.push(`${where}: missing`);
      continue;
    }
    if (texts.length > 1) {
      violations.push(`${where}: sent ${texts.length} times`);
      continue;
    }
    const value = parameterValue(texts[0] ?? '', parameter.schema);
    if (value === undefined) violations.push(`${where}: "${texts[0]}" is not of its type`);
    else check(where, value, parameter.schema);
  }
  const body = op.object.requestBody;
  const schema = body?.content['application/json']?.schema;
  if (body && schema) {
    const contentType = Object.entries(answer.sent.headers).find(
      ([n]) => n.toLowerCase() === 'content-type',
    )?.[1];
    if (answer.sent.body === undefined || answer.sent.body === '') {
      if (body.required) violations.push('body: missing');
    } else if (!/^application\/json\s*(;|$)/i.test(contentType ?? '')) {
      violations.push(`body: content type ${contentType}`);
    } else {
      try {
        check('body', JSON.parse(answer.sent.body), schema);
      } catch {
        violations.push('body: not JSON');
      }
    }
  }
  return violations;
}
