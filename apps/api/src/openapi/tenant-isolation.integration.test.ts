import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../router.ts';
import { type Harness, type RequestOptions, startServer } from '../testing/http-harness.ts';
import {
  ISOLATION,
  type IsolationCase,
  type ResourceRef,
  WORKSPACE_ROLES,
} from '../testing/isolation-table.ts';
import { type JsonSchema, schemaArbitraries } from '../testing/schema-arbitraries.ts';
import { makeTenant, type ResourceKind, type Tenant } from '../testing/tenant-fixtures.ts';
import { buildOpenApiDocument } from './document.ts';
import { plainRoutePaths } from './plain-routes.ts';

/*
 * Tenant isolation, generated from the API document: every operation of /openapi.json that names a resource
 * by id is called by tenant B on tenant A's resources — with B's key and B's session where the operation
 * takes them, and through /trpc with B's key where a procedure serves it — and must answer what the
 * isolation table says (testing/isolation-table.ts), with no text of A's in the answer. Every list B can read is
 * searched for A's text too. A's resources read the same before and after. Then B joins A's workspace as
 * each role in turn and calls every workspace operation, which must answer as the role table says
 * (WORKSPACE_ROLES). A new operation with an id and no table entry, or a workspace operation with no role
 * row, fails the first tests. Run on PostgreSQL and on the embedded default.
 */

type Parameter = { name: string; in: string; required?: boolean; schema: JsonSchema };
type OperationObject = {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};
type Document = {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
};
type Operation = { method: string; path: string; object: OperationObject; label: string };

const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(appRouter, 'http://localhost:3000'))) as Document;
const resolve = (ref: string) => doc.components.schemas[ref.split('/').at(-1) ?? ''] as JsonSchema;
const deref = (schema: JsonSchema | undefined) => (schema?.$ref ? resolve(schema.$ref) : schema);
const arbitraries = schemaArbitraries(resolve);

const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, object]) => ({
    method: method.toUpperCase(),
    path,
    object,
    label: `${method.toUpperCase()} ${path}`,
  })),
);

const ID_NAME = /^(id|token|.+Id|.+Ids)$/;
/**
 * Named like ids, naming no resource: a stream's resume point is an event number; an audit filter's target
 * id only matches entries of a trail the caller was already let read; an SSO connection's client id and
 * entity id are the identity provider's names.
 */
const NOT_RESOURCES = new Set(['lastEventId', 'targetId', 'clientId', 'entityId']);
const namesResource = (name: string) => ID_NAME.test(name) && !NOT_RESOURCES.has(name);

function jsonBodySchema(op: Operation) {
  return deref(op.object.requestBody?.content['application/json']?.schema);
}

/** The operation's inputs that name a resource: its path parameters, and query or body fields named as ids. */
function idSlotsOf(op: Operation): string[] {
  const params = (op.object.parameters ?? [])
    .filter((p) => p.in === 'path' || (p.in === 'query' && namesResource(p.name)))
    .map((p) => p.name);
  const body = Object.keys(jsonBodySchema(op)?.properties ?? {}).filter(namesResource);
  return [...params, ...body];
}

const withIds = operations.filter((op) => idSlotsOf(op).length > 0);

/** The tRPC procedure behind each REST operation, by its label. */
const procedures = new Map<string, { name: string; type: string }>();
for (const [name, procedure] of Object.entries(
  (appRouter as unknown as { _def: { procedures: Record<string, { _def: ProcedureDef }> } })._def.procedures,
)) {
  const openapi = procedure._def.meta?.openapi;
  if (openapi) procedures.set(`${openapi.method} ${openapi.path}`, { name, type: procedure._def.type });
}
type ProcedureDef = { type: string; meta?: { openapi?: { method: string; path: string } } };

/** Operations served by plain Fastify handlers (streams, attachment bodies, health …): REST only. */
const plainLabels = new Set(
  Object.entries(plainRoutePaths().paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  ),
);
const servedByTrpc = withIds.filter((op) => !plainLabels.has(op.label));

describe('the isolation table', () => {
  it('has an entry for every operation of the document that names a resource by id, and no other', () => {
    const missing = withIds.map((op) => op.label).filter((label) => !(label in ISOLATION));
    expect(missing, 'operations with ids and no isolation entry').toEqual([]);
    const stale = Object.keys(ISOLATION).filter((label) => !withIds.some((op) => op.label === label));
    expect(stale, 'isolation entries of no operation').toEqual([]);
  });

  it('has a row by role for every workspace operation', () => {
    const workspaceOperations = operations
      .filter((op) => op.path.startsWith('/api/workspaces/{id}'))
      .map((op) => op.label);
    expect(workspaceOperations.length).toBeGreaterThan(5);
    for (const label of workspaceOperations) expect(Object.keys(WORKSPACE_ROLES)).toContain(label);
    for (const label of Object.keys(WORKSPACE_ROLES)) {
      expect(operations.map((op) => op.label)).toContain(label);
    }
  });

  it('finds the tRPC procedure of every operation with ids that is not a plain route, and none of a plain one', () => {
    expect(servedByTrpc.length).toBeGreaterThan(20);
    const unserved = servedByTrpc.filter((op) => !procedures.has(op.label)).map((op) => op.label);
    expect(unserved, 'operations neither plain routes nor served by a procedure').toEqual([]);
    const plainWithProcedure = withIds.filter((op) => plainLabels.has(op.label) && procedures.has(op.label));
    expect(plainWithProcedure.map((op) => op.label)).toEqual([]);
  });

  it("names only the operation's id slots in its cases, and each of them in some case", () => {
    for (const op of withIds) {
      const entry = ISOLATION[op.label];
      if (!entry || !Array.isArray(entry)) continue;
      const named = new Set(entry.flatMap((matrixCase) => Object.keys(matrixCase.ids)));
      expect([...named].sort(), op.label).toEqual(idSlotsOf(op).sort());
    }
  });
});

describe.each([
  { mode: 'PostgreSQL', database: 'postgres' },
  { mode: 'embedded PGlite', database: 'pglite' },
] as const)('tenant isolation on $mode', ({ database }) => {
  let h: Harness;
  let a: Tenant;
  let b: Tenant;
  let before: Map<string, string>;

  beforeAll(async () => {
    h = await startServer({
      database,
      env: {
        SESSION_REQUESTS_PER_MINUTE: '100000',
        STREAM_OPENS_PER_MINUTE: '100000',
        // No engine runs here: the debates members make stay pending, and must not reach a limit.
        CONCURRENT_DEBATES: '100',
      },
    });
    a = await makeTenant(h, 'alpha');
    b = await makeTenant(h, 'bravo');
    before = await ownersView(h, a);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  for (const op of withIds) {
    const entry = ISOLATION[op.label];
    if (!entry || !Array.isArray(entry)) continue;
    it(`answers B on A's resources through ${op.label} as the table says, on REST`, async () => {
      for (const matrixCase of entry) {
        const request = requestOf(op, matrixCase, { a, b });
        for (const credential of credentialsOf(op, b)) {
          const answer = await send(h, op, request, credential);
          const where = `${op.label} as B (${credential.label}) with ${JSON.stringify(matrixCase.ids)}`;
          expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBe(matrixCase.status);
          expect(answer.text.includes(a.marker), `${where} answered A's text: ${answer.text}`).toBe(false);
        }
      }
    });
  }

  for (const op of servedByTrpc) {
    const entry = ISOLATION[op.label];
    if (!entry || !Array.isArray(entry)) continue;
    it(`answers B on A's resources through the procedure of ${op.label} as the table says, on tRPC`, async () => {
      const procedure = procedures.get(op.label);
      if (!procedure) throw new Error(`${op.label}: no tRPC procedure serves it`);
      for (const matrixCase of entry) {
        const answer = await sendTrpc(h, procedure, requestOf(op, matrixCase, { a, b }), b.key);
        const where = `/trpc/${procedure.name} as B with ${JSON.stringify(matrixCase.ids)}`;
        expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBe(matrixCase.status);
        expect(answer.text.includes(a.marker), `${where} answered A's text`).toBe(false);
      }
    });
  }

  it("shows none of A's text in any list or search B reads", async () => {
    const lists = operations.filter(
      (op) =>
        op.method === 'GET' &&
        !op.path.includes('{') &&
        (op.object.security ?? []).some((scheme) => 'bearerAuth' in scheme) &&
        !op.path.endsWith('/stream'),
    );
    expect(lists.length).toBeGreaterThan(15);
    for (const op of lists) {
      // Searches for words of A's debate question (never its marker, which an answer may echo back).
      const query = op.object.parameters?.some((p) => p.name === 'q') ? '?q=private%20owner' : '';
      const answer = await h.request('GET', `${op.path}${query}`, { key: b.key });
      expect(answer.status, `${op.label}: ${answer.text.slice(0, 300)}`).toBeLessThan(300);
      expect(answer.text.includes(a.marker), `${op.label} showed B A's text: ${answer.text}`).toBe(false);
    }
  });

  it('leaves every resource of A as it was', async () => {
    const after = await ownersView(h, a);
    for (const [path, text] of before) expect(after.get(path), path).toBe(text);
  });

  // Last: members may change A's workspace (an admin edits it), and B's calls above were made as no member.
  for (const role of ['viewer', 'member', 'admin'] as const) {
    it(`lets B as a ${role} of A's workspace do what the role table says, and no more`, async () => {
      await h.core.workspaceMembers.invite(a.user.session.user.id, {
        id: a.ids.workspace,
        email: b.user.email,
        role,
      });
      try {
        for (const [label, roleCase] of Object.entries(WORKSPACE_ROLES)) {
          const fill = (text: string) =>
            text
              .replaceAll('{workspace}', a.ids.workspace)
              .replaceAll('{ownDebate}', b.ids.debate)
              .replaceAll('{stranger}', STRANGER);
          const body = roleCase.body ? JSON.parse(fill(JSON.stringify(roleCase.body))) : undefined;
          for (const credential of [{ key: b.key }, { cookie: b.user.cookie }]) {
            const answer = await h.request(roleCase.method, fill(roleCase.path), { ...credential, body });
            expect(answer.status, `${label} as ${role}: ${answer.text.slice(0, 300)}`).toBe(
              roleCase.status[role],
            );
          }
        }
      } finally {
        await h.core.workspaceMembers.remove(a.user.session.user.id, a.ids.workspace, b.user.session.user.id);
      }
    });
  }
});

/** An account in no workspace (no account at all): a member id a workspace route may be asked about. */
const STRANGER = '00000000-0000-4000-8000-00000000beef';

/** B's credentials the operation accepts: its key as Bearer, its session, each where the document allows. */
function credentialsOf(op: Operation, tenant: Tenant): { label: string; options: RequestOptions }[] {
  const schemes = new Set((op.object.security ?? []).flatMap((scheme) => Object.keys(scheme)));
  const credentials: { label: string; options: RequestOptions }[] = [];
  if (schemes.has('bearerAuth')) credentials.push({ label: 'key', options: { key: tenant.key } });
  if (schemes.has('sessionCookie'))
    credentials.push({ label: 'session', options: { cookie: tenant.user.cookie } });
  return credentials;
}

type MatrixRequest = {
  path: string;
  query: string;
  body: Record<string, unknown> | undefined;
  input: object;
};

/** The case's request: ids where the table puts them, the body's other required fields generated valid. */
function requestOf(
  op: Operation,
  matrixCase: IsolationCase,
  tenants: { a: Tenant; b: Tenant },
): MatrixRequest {
  const idOf = (ref: ResourceRef) => {
    const [owner, kind] = ref.split('.') as ['a' | 'b', ResourceKind];
    return tenants[owner].ids[kind];
  };
  const values = Object.fromEntries(
    Object.entries(matrixCase.ids).map(([slot, ref]) => [
      slot,
      Array.isArray(ref) ? ref.map(idOf) : idOf(ref),
    ]),
  );
  const params = op.object.parameters ?? [];
  const inPath = new Set(params.filter((p) => p.in === 'path').map((p) => p.name));
  const inQuery = new Set(params.filter((p) => p.in === 'query').map((p) => p.name));
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
  const query = new URLSearchParams(
    Object.entries(values)
      .filter(([slot]) => inQuery.has(slot))
      .map(([slot, value]): [string, string] => [slot, String(value)]),
  ).toString();
  const schema = jsonBodySchema(op);
  let body: Record<string, unknown> | undefined;
  if (schema) {
    body = { ...requiredFieldsOf(schema), ...matrixCase.body };
    for (const [slot, value] of Object.entries(values))
      if (!inPath.has(slot) && !inQuery.has(slot)) body[slot] = value;
  }
  const pathValues = Object.fromEntries(
    Object.entries(values).filter(([slot]) => inPath.has(slot) || inQuery.has(slot)),
  );
  return { path, query: query ? `?${query}` : '', body, input: { ...pathValues, ...body } };
}

/** A valid value of each required field of the body, the same on every run (a fixed seed). */
function requiredFieldsOf(schema: JsonSchema): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const field = schema.properties?.[name];
    if (field) fields[name] = fc.sample(arbitraries.valid(field), { numRuns: 1, seed: 7 })[0];
  }
  return fields;
}

async function send(
  h: Harness,
  op: Operation,
  request: MatrixRequest,
  credential: { options: RequestOptions },
) {
  const url = `${request.path}${request.query}`;
  if (op.object.requestBody?.content['multipart/form-data']) {
    const form = new FormData();
    form.append('file', new Blob(['a stranger writes here'], { type: 'text/plain' }), 'stranger.txt');
    const headers: Record<string, string> = {};
    if (credential.options.key) headers.authorization = `Bearer ${credential.options.key}`;
    if (credential.options.cookie) headers.cookie = `verdict_session=${credential.options.cookie}`;
    const res = await fetch(`${h.baseUrl}${url}`, { method: op.method, headers, body: form });
    return { status: res.status, text: await res.text() };
  }
  if (op.path.endsWith('/stream')) {
    // A stream that opened would never end: its first bytes are enough to tell.
    const controller = new AbortController();
    const headers: Record<string, string> = credential.options.key
      ? { authorization: `Bearer ${credential.options.key}` }
      : { cookie: `verdict_session=${credential.options.cookie}` };
    const res = await fetch(`${h.baseUrl}${url}`, { headers, signal: controller.signal });
    const text = res.status === 200 ? '' : await res.text();
    controller.abort();
    return { status: res.status, text };
  }
  return h.request(op.method, url, {
    ...credential.options,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
}

async function sendTrpc(
  h: Harness,
  procedure: { name: string; type: string },
  request: MatrixRequest,
  key: string,
) {
  const headers = { authorization: `Bearer ${key}` };
  const res =
    procedure.type === 'query'
      ? await fetch(
          `${h.baseUrl}/trpc/${procedure.name}?input=${encodeURIComponent(JSON.stringify(request.input))}`,
          { headers },
        )
      : await fetch(`${h.baseUrl}/trpc/${procedure.name}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(request.input),
        });
  return { status: res.status, text: await res.text() };
}

/** What A sees of its resources, by path: compared before and after B's calls. */
async function ownersView(h: Harness, owner: Tenant): Promise<Map<string, string>> {
  const { ids } = owner;
  const paths = [
    `/api/debates/${ids.debate}`,
    `/api/debates/${ids.debate}/comments`,
    `/api/debates/${ids.debate}/polls`,
    `/api/debates/${ids.debate}/votes`,
    `/api/debates/${ids.debate}/outcome`,
    `/api/debates/${ids.debate}/attachments`,
    `/api/collections/${ids.collection}`,
    `/api/chains/${ids.chain}`,
    `/api/workspaces/${ids.workspace}`,
    `/api/workspaces/${ids.workspace}/members`,
    `/api/scheduled-debates/${ids.schedule}`,
    '/api/webhooks',
    '/api/keys',
    `/api/invoices/${ids.invoice}`,
  ];
  const view = new Map<string, string>();
  for (const path of paths) {
    const res = await h.request('GET', path, { cookie: owner.user.cookie });
    view.set(path, `${res.status} ${res.text}`);
  }
  return view;
}
