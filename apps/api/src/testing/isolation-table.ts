import type { ResourceKind } from './tenant-fixtures.ts';

/** A resource of tenant A (the owner) or B (the caller), by kind: `a.debate`, `b.collection`. */
export type ResourceRef = `${'a' | 'b'}.${ResourceKind}`;

/**
 * One call B makes: each id slot of the operation (path parameter, or query or body field named `id`,
 * `…Id` or `…Ids`) filled with a resource, the rest of the body, and the status B must get.
 */
export type IsolationCase = {
  ids: Record<string, ResourceRef | ResourceRef[]>;
  body?: Record<string, unknown>;
  /**
   * 404 where B may not know the resource exists; 403 where the spec answers that (its error table); 400
   * where a body's ids are checked as input, a foreign id answered as an unknown one is.
   */
  status: 400 | 403 | 404;
};

/** An operation whose ids name no tenant's resource behind a credential: why it is outside the matrix. */
export type OpenOperation = { open: string };

export type IsolationEntry = IsolationCase[] | OpenOperation;

/** A connection another account tries to set on a workspace not theirs (refused before the issuer is read). */
const SSO_BODY = {
  protocol: 'oidc',
  issuer: 'https://idp.example.invalid',
  clientId: 'intruder',
  allowedDomains: ['example.com'],
};

const one = (
  status: 403 | 404,
  ids: IsolationCase['ids'],
  body?: Record<string, unknown>,
): IsolationCase[] => [{ status, ids, ...(body ? { body } : {}) }];

/**
 * How tenant B's call to every operation that names a resource by id must be answered when the resource
 * is tenant A's. The one table the isolation matrix reads: an operation of the document with an id and no
 * entry here fails the test, so a new route cannot ship without saying who may reach what through it.
 *
 * The spec's statuses: 404 for a resource the caller may not know of (a debate, a chain, a schedule, a
 * webhook of someone else); 403 where its routes say "other account" or "not owner" of something the caller
 * can see exists (a key id, a collection, a workspace the caller is not in).
 */
export const ISOLATION: Record<string, IsolationEntry> = {
  'PATCH /api/keys/{id}': one(403, { id: 'a.key' }, { name: 'renamed by another account' }),
  'DELETE /api/keys/{id}': one(403, { id: 'a.key' }),

  'POST /api/debates': [
    {
      status: 403,
      ids: { workspaceId: 'a.workspace', attachmentIds: ['b.attachment'] },
      body: { question: 'Should I post into a stranger?' },
    },
    {
      status: 400,
      ids: { attachmentIds: ['a.attachment'] },
      body: { question: "Should I read a stranger's file?" },
    },
  ],
  // The create's body and checks, writing nothing.
  'POST /api/debates/estimate': [
    {
      status: 403,
      ids: { workspaceId: 'a.workspace', attachmentIds: ['b.attachment'] },
      body: { question: 'What would posting into a stranger cost?' },
    },
    {
      status: 400,
      ids: { attachmentIds: ['a.attachment'] },
      body: { question: "What would reading a stranger's file cost?" },
    },
  ],
  'GET /api/debates': one(403, { workspaceId: 'a.workspace' }),
  'GET /api/debates/{id}/cost': one(404, { id: 'a.debate' }),
  'GET /api/debates/{id}': one(404, { id: 'a.debate' }),
  'DELETE /api/debates/{id}': one(404, { id: 'a.debate' }),
  'GET /api/debates/{id}/verdict': one(404, { id: 'a.debate' }),
  'POST /api/debates/{id}/commands': one(404, { id: 'a.debate' }, { type: 'pause' }),
  'GET /api/debates/{id}/statechart': one(404, { id: 'a.debate' }),
  'POST /api/debates/{id}/retry': one(404, { id: 'a.debate' }),
  'POST /api/debates/{id}/fork': one(404, { id: 'a.debate' }, {}),
  'GET /api/debates/{id}/analytics': one(404, { id: 'a.debate' }),
  // Who may read comes before the reader's plan: a stranger learns nothing of the debate, whatever the plan.
  'GET /api/debates/{id}/argument-graph': one(404, { id: 'a.debate' }),
  'GET /api/debates/{id}/evidence': one(404, { id: 'a.debate' }),
  'PATCH /api/debates/{id}/visibility': one(404, { id: 'a.debate' }, { isPublic: true }),
  'PATCH /api/debates/{id}/workspace': [
    { status: 404, ids: { id: 'a.debate', workspaceId: 'b.workspace' } },
    { status: 403, ids: { id: 'b.debate', workspaceId: 'a.workspace' } },
  ],
  'POST /api/debates/{id}/outcome': one(404, { id: 'a.debate' }, { outcomeStatus: 'wrong' }),
  'GET /api/debates/{id}/outcome': one(404, { id: 'a.debate' }),
  'POST /api/debates/{id}/outcome/skip': one(404, { id: 'a.debate' }),
  'PATCH /api/debates/{id}/outcome/reminder': one(
    404,
    { id: 'a.debate' },
    { reminderAt: '2031-01-01T09:00:00Z' },
  ),

  'GET /api/debates/{debateId}/votes': one(403, { debateId: 'a.debate' }),
  'POST /api/debates/{debateId}/votes': one(
    403,
    { debateId: 'a.debate', claimId: 'a.claim' },
    { vote: 'disagree' },
  ),
  'DELETE /api/debates/{debateId}/votes/{claimId}': one(403, { debateId: 'a.debate', claimId: 'a.claim' }),
  'GET /api/debates/{debateId}/polls': one(403, { debateId: 'a.debate' }),
  'POST /api/debates/{debateId}/polls': one(
    403,
    { debateId: 'a.debate' },
    { question: 'Whose poll is this?', options: ['Mine', 'Yours'] },
  ),
  'POST /api/debates/{debateId}/polls/{pollId}/vote': one(403, {
    debateId: 'a.debate',
    pollId: 'a.poll',
    optionId: 'a.pollOption',
  }),
  'PATCH /api/debates/{debateId}/polls/{pollId}': one(403, { debateId: 'a.debate', pollId: 'a.poll' }),
  'DELETE /api/debates/{debateId}/polls/{pollId}': one(403, { debateId: 'a.debate', pollId: 'a.poll' }),

  'GET /api/collections/{id}': one(403, { id: 'a.collection' }),
  'PATCH /api/collections/{id}': one(403, { id: 'a.collection' }, { name: 'Taken over' }),
  'DELETE /api/collections/{id}': one(403, { id: 'a.collection' }),
  'POST /api/collections/{id}/items': [
    { status: 403, ids: { id: 'a.collection', debateId: 'b.debate' } },
    { status: 404, ids: { id: 'b.collection', debateId: 'a.debate' } },
  ],
  'DELETE /api/collections/{id}/items/{debateId}': one(403, { id: 'a.collection', debateId: 'a.debate' }),
  'PATCH /api/collections/{id}/items/reorder': one(403, { id: 'a.collection' }),

  'POST /api/chains': one(404, { rootDebateId: 'a.debate' }, { name: 'A chain on a stranger' }),
  'GET /api/chains/{id}': one(404, { id: 'a.chain' }),
  'DELETE /api/chains/{id}': one(404, { id: 'a.chain' }),
  'POST /api/chains/{id}/debates': [
    { status: 404, ids: { id: 'a.chain', debateId: 'b.debate', parentDebateId: 'a.debate' } },
    { status: 404, ids: { id: 'b.chain', debateId: 'a.debate', parentDebateId: 'b.debate' } },
  ],
  'GET /api/chains/{id}/context': one(404, { id: 'a.chain' }),

  'POST /api/share/{debateId}': one(404, { debateId: 'a.debate' }),
  'PATCH /api/share/{debateId}': one(404, { debateId: 'a.debate' }, {}),
  'DELETE /api/share/{debateId}': one(404, { debateId: 'a.debate' }),
  'GET /api/public/debates/{token}': {
    open: 'the share token is the credential: whoever holds it may read the shared debate (sharing tests)',
  },
  'OPTIONS /api/public/debates/{token}': { open: 'the CORS preflight of the public share read' },

  'GET /api/debates/{id}/comments': one(403, { id: 'a.debate' }),
  'POST /api/debates/{id}/comments': one(403, { id: 'a.debate' }, { content: 'A stranger was here' }),
  'DELETE /api/debates/{id}/comments/{commentId}': one(403, { id: 'a.debate', commentId: 'a.comment' }),

  'GET /api/workspaces/{id}': one(403, { id: 'a.workspace' }),
  'PATCH /api/workspaces/{id}': one(403, { id: 'a.workspace' }, { name: 'Taken over' }),
  'DELETE /api/workspaces/{id}': one(403, { id: 'a.workspace' }),
  'GET /api/workspaces/{id}/members': one(403, { id: 'a.workspace' }),
  'POST /api/workspaces/{id}/members': one(403, { id: 'a.workspace' }, { role: 'admin' }),
  'DELETE /api/workspaces/{id}/members/{userId}': one(403, { id: 'a.workspace', userId: 'a.member' }),
  'PATCH /api/workspaces/{id}/members/{userId}': one(
    403,
    { id: 'a.workspace', userId: 'a.member' },
    { role: 'viewer' },
  ),
  'GET /api/workspaces/{id}/debates': one(403, { id: 'a.workspace' }),

  'POST /api/billing/checkout-session-pro': one(403, { workspaceId: 'a.workspace' }),
  'POST /api/billing/credit-checkout': one(403, { workspaceId: 'a.workspace' }, { pack: 'credits_100' }),
  'GET /api/invoices': one(403, { workspaceId: 'a.workspace' }),
  'GET /api/invoices/{id}': one(404, { id: 'a.invoice' }),

  'GET /v1/verdicts/{id}': one(404, { id: 'a.debate' }),
  'GET /v1/verdicts/{id}/evidence': one(404, { id: 'a.debate' }),
  'DELETE /v1/verdicts/{id}': one(404, { id: 'a.debate' }),
  'GET /v1/verdicts/{id}/stream': one(404, { id: 'a.debate' }),
  'GET /api/debates/{id}/stream': one(404, { id: 'a.debate' }),

  'GET /api/scheduled-debates/{id}': one(403, { id: 'a.schedule' }),
  'PATCH /api/scheduled-debates/{id}': one(403, { id: 'a.schedule' }, { active: false }),
  'DELETE /api/scheduled-debates/{id}': one(403, { id: 'a.schedule' }),

  'PUT /api/webhooks/{id}': one(404, { id: 'a.webhook' }, { active: false }),
  'DELETE /api/webhooks/{id}': one(404, { id: 'a.webhook' }),
  'GET /api/webhooks/{id}/deliveries': one(404, { id: 'a.webhook' }),
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver': [
    { status: 404, ids: { id: 'a.webhook', deliveryId: 'a.delivery' } },
    { status: 404, ids: { id: 'b.webhook', deliveryId: 'a.delivery' } },
  ],
  'POST /api/webhooks/{id}/test': one(404, { id: 'a.webhook' }),

  'GET /api/debates/{id}/attachments': one(404, { id: 'a.debate' }),
  'POST /api/debates/{id}/attachments': one(404, { id: 'a.debate' }),
  'DELETE /api/debates/{id}/attachments/{attachmentId}': one(404, {
    id: 'a.debate',
    attachmentId: 'a.attachment',
  }),
  'GET /api/debates/{id}/attachments/{attachmentId}/download': [
    { status: 404, ids: { id: 'a.debate', attachmentId: 'a.attachment' } },
    { status: 404, ids: { id: 'b.debate', attachmentId: 'a.attachment' } },
  ],
  'POST /api/debates/fetch-url': one(404, { debateId: 'a.debate' }, { url: 'https://example.invalid/' }),

  // An account's own trail has no id to name: without workspaceId each caller reads only their own.
  'GET /api/audit': one(403, { workspaceId: 'a.workspace' }),
  'GET /api/audit/verify': one(403, { workspaceId: 'a.workspace' }),
  'GET /api/audit/export': one(403, { workspaceId: 'a.workspace' }),

  // A workspace's single sign-on: its owner's and admins' (a stranger learns nothing, not even whether one is set up).
  'GET /api/workspaces/{id}/sso': one(403, { id: 'a.workspace' }),
  'PUT /api/workspaces/{id}/sso': one(403, { id: 'a.workspace' }, SSO_BODY),
  'DELETE /api/workspaces/{id}/sso': one(403, { id: 'a.workspace' }),
  'POST /api/workspaces/{id}/sso/deprovision': one(403, { id: 'a.workspace' }, { email: 'gone@example.com' }),

  // A browser's sign-in through a workspace's provider: the slug names a public entry, the provider's signed
  // answer to a sign-in started in the same browser is the credential, and what it opens is a session of the
  // person the provider vouched for.
  'GET /api/auth/sso/{slug}': {
    open: "a workspace's sign-in entry, public by design; it reveals nothing of the workspace",
  },
  'GET /api/auth/sso/{slug}/oidc/callback': {
    open: "the provider's answer is the credential (state bound to the browser)",
  },
  'POST /api/auth/sso/{slug}/saml/acs': {
    open: "the provider's signed assertion is the credential (bound to the browser)",
  },
  'GET /api/auth/sso/{slug}/saml/metadata': {
    open: 'the service provider metadata a workspace gives its provider: public by design',
  },

  'GET /api/unsubscribe': {
    open: "the signed token in the link is the credential, and it names the user it unsubscribes (the email's)",
  },
};

export type WorkspaceRole = 'viewer' | 'member' | 'admin';

/**
 * One call B makes into A's workspace as a member of it: the path and body (`{workspace}`, `{ownDebate}` and
 * `{stranger}` stand for A's workspace, a debate of B's, and the id of an account in no workspace), and the
 * status for each role. A role the spec's role table refuses gets 403; one it allows gets the answer the
 * operation gives past its role check: a success, or 404 for a member who is not there.
 */
export type WorkspaceRoleCase = {
  method: string;
  path: string;
  body?: Record<string, unknown>;
  status: Record<WorkspaceRole, number>;
};

const everyRole = (status: number) => ({ viewer: status, member: status, admin: status });

/**
 * The workspace operations by role (the spec's "Required role" column and its role table). Keyed by the
 * operation, so the matrix can tell that every operation of a workspace has its row.
 */
export const WORKSPACE_ROLES: Record<string, WorkspaceRoleCase> = {
  'GET /api/workspaces/{id}': { method: 'GET', path: '/api/workspaces/{workspace}', status: everyRole(200) },
  'PATCH /api/workspaces/{id}': {
    method: 'PATCH',
    path: '/api/workspaces/{workspace}',
    body: { description: 'Edited by a member' },
    status: { viewer: 403, member: 403, admin: 200 },
  },
  'DELETE /api/workspaces/{id}': {
    method: 'DELETE',
    path: '/api/workspaces/{workspace}',
    status: everyRole(403),
  },
  'GET /api/workspaces/{id}/members': {
    method: 'GET',
    path: '/api/workspaces/{workspace}/members',
    status: everyRole(200),
  },
  'POST /api/workspaces/{id}/members': {
    method: 'POST',
    path: '/api/workspaces/{workspace}/members',
    // No account has this email: past the role check, the invite answers 404.
    body: { email: 'nobody-at-all@example.invalid', role: 'viewer' },
    status: { viewer: 403, member: 404, admin: 404 },
  },
  'DELETE /api/workspaces/{id}/members/{userId}': {
    method: 'DELETE',
    path: '/api/workspaces/{workspace}/members/{stranger}',
    status: { viewer: 403, member: 403, admin: 404 },
  },
  'PATCH /api/workspaces/{id}/members/{userId}': {
    method: 'PATCH',
    path: '/api/workspaces/{workspace}/members/{stranger}',
    body: { role: 'viewer' },
    status: { viewer: 403, member: 403, admin: 404 },
  },
  'GET /api/workspaces/{id}/debates': {
    method: 'GET',
    path: '/api/workspaces/{workspace}/debates',
    status: everyRole(200),
  },
  'GET /api/debates': { method: 'GET', path: '/api/debates?workspaceId={workspace}', status: everyRole(200) },
  // The trail says who did what in the workspace, from where: for its admins and owner only.
  'GET /api/audit': {
    method: 'GET',
    path: '/api/audit?workspaceId={workspace}',
    status: { viewer: 403, member: 403, admin: 200 },
  },
  'GET /api/audit/verify': {
    method: 'GET',
    path: '/api/audit/verify?workspaceId={workspace}',
    status: { viewer: 403, member: 403, admin: 200 },
  },
  'GET /api/audit/export': {
    method: 'GET',
    path: '/api/audit/export?workspaceId={workspace}&format=csv',
    status: { viewer: 403, member: 403, admin: 200 },
  },
  // Single sign-on decides who may sign in as a member: the owner sets it up, admins read it (none is set
  // up here: 404 past the role check) and deprovision people.
  'GET /api/workspaces/{id}/sso': {
    method: 'GET',
    path: '/api/workspaces/{workspace}/sso',
    status: { viewer: 403, member: 403, admin: 404 },
  },
  'PUT /api/workspaces/{id}/sso': {
    method: 'PUT',
    path: '/api/workspaces/{workspace}/sso',
    body: SSO_BODY,
    status: everyRole(403),
  },
  'DELETE /api/workspaces/{id}/sso': {
    method: 'DELETE',
    path: '/api/workspaces/{workspace}/sso',
    status: everyRole(403),
  },
  'POST /api/workspaces/{id}/sso/deprovision': {
    method: 'POST',
    path: '/api/workspaces/{workspace}/sso/deprovision',
    body: { email: 'gone@example.com' },
    status: { viewer: 403, member: 403, admin: 200 },
  },
  'POST /api/debates': {
    method: 'POST',
    path: '/api/debates',
    body: { question: 'Should the workspace debate this?', workspaceId: '{workspace}' },
    status: { viewer: 403, member: 201, admin: 201 },
  },
  'PATCH /api/debates/{id}/workspace': {
    method: 'PATCH',
    path: '/api/debates/{ownDebate}/workspace',
    body: { workspaceId: '{workspace}' },
    status: { viewer: 403, member: 200, admin: 200 },
  },
};
