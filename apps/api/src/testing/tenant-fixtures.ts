import { randomBytes } from 'node:crypto';
import { debateReaching, insertPendingDebate } from '@verdict/core/testing';
import { startTestEngine } from '@verdict/engine/testing';
import { createKey, type Harness, registerUser, type TestUser } from './http-harness.ts';

/** The kinds of resource an operation's id may name: what the isolation table fills each id slot with. */
export type ResourceKind =
  | 'debate'
  | 'key'
  | 'chain'
  | 'collection'
  | 'comment'
  | 'poll'
  | 'pollOption'
  | 'claim'
  | 'workspace'
  | 'member'
  | 'schedule'
  | 'webhook'
  | 'delivery'
  | 'attachment'
  | 'invoice'
  | 'shareToken';

/** One account with one resource of every kind, made through the API wherever the API can make it. */
export type Tenant = {
  user: TestUser;
  key: string;
  ids: Record<ResourceKind, string>;
  /** Text only this tenant's resources hold: no answer to anyone else may contain it. */
  marker: string;
};

/**
 * Makes a tenant on the Enterprise plan (every gated feature, credits funded: no plan gate answers before
 * the access check does), its resources carrying a marker of their own: a completed private debate (with a comment, a poll, an argument
 * vote, an outcome and a share link), a key, a chain, a collection holding the debate, a workspace, a
 * schedule, a webhook with a delivery, an attachment and an invoice.
 */
export async function makeTenant(h: Harness, label: string): Promise<Tenant> {
  const marker = `${label}-${randomBytes(6).toString('hex')}`;
  const user = await registerUser(h, { name: `Tenant ${marker}` });
  const userId = user.session.user.id;
  await h.core.accounts.setPlan(userId, 'enterprise');
  await h.core.billing.grantCredits(userId, 200);
  const key = (await createKey(h, user, { name: `key ${marker}` })).key;
  const keyId = (await createKey(h, user, { name: `second key ${marker}` })).id;

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await h.request<T>(method, path, { key, ...(body !== undefined ? { body } : {}) });
    if (res.status >= 300) throw new Error(`${label}: ${method} ${path} answered ${res.status} ${res.text}`);
    return res.json;
  };

  const pending = await insertPendingDebate(h.core, {
    ownerId: userId,
    question: `Should ${marker} stay private to its owner?`,
    agents: 2,
    rounds: 1,
  });
  const engine = startTestEngine(h.core, { firstTokenMs: 1 }, 2);
  try {
    await debateReaching(h.core, pending.id, { statuses: ['completed'] });
  } finally {
    await engine.stop();
  }
  const debate = pending.id;
  const claim = `a1-r1-${(await firstAgent(h, key, debate)).toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

  const comment = await call<{ id: string }>('POST', `/api/debates/${debate}/comments`, {
    content: `A comment of ${marker}`,
  });
  const poll = await call<{ id: string; options: { id: string }[] }>('POST', `/api/debates/${debate}/polls`, {
    question: `Which way, ${marker}?`,
    options: ['This way', 'That way'],
  });
  await call('POST', `/api/debates/${debate}/votes`, { claimId: claim, vote: 'agree' });
  await call('POST', `/api/debates/${debate}/outcome`, {
    outcomeStatus: 'correct',
    outcomeNotes: `Notes of ${marker}`,
  });
  const share = await call<{ shareUrl: string }>('POST', `/api/share/${debate}`);
  const chain = await call<{ id: string }>('POST', '/api/chains', {
    name: `Chain of ${marker}`,
    rootDebateId: debate,
  });
  const collection = await call<{ id: string }>('POST', '/api/collections', { name: `Collection ${marker}` });
  await call('POST', `/api/collections/${collection.id}/items`, { debateId: debate });
  const workspace = await call<{ id: string }>('POST', '/api/workspaces', {
    name: `Workspace ${marker}`,
    slug: marker.toLowerCase(),
  });
  const schedule = await call<{ id: string }>('POST', '/api/scheduled-debates', {
    question: `Should ${marker} ask this every week?`,
    frequency: 'weekly',
    dayOfWeek: 1,
    timeOfDay: '09:00',
    timezone: 'UTC',
    mode: 'fast',
  });
  // A host that resolves nowhere: the deliveries fail quietly.
  const webhook = await call<{ id: string }>('POST', '/api/webhooks', {
    url: `https://${marker.toLowerCase()}.invalid/hook`,
    events: ['debate.created'],
    active: true,
  });
  const delivery = await call<{ deliveryId: string }>('POST', `/api/webhooks/${webhook.id}/test`);
  const attachment = await h.core.attachments.upload(userId, debate, {
    filename: `${marker}.txt`,
    bytes: new TextEncoder().encode(`Notes of ${marker}`),
  });
  const [invoice] = await h.core.db.execute<{ id: string }>(
    `insert into invoices (user_id, type, description, amount_cents, currency, status, metadata)
     values (?, 'credit_pack', ?, 499, 'usd', 'paid', '{"creditAmount":100}') returning id`,
    [userId, `100 credits for ${marker}`],
  );

  return {
    user,
    key,
    marker,
    ids: {
      debate,
      key: keyId,
      chain: chain.id,
      collection: collection.id,
      comment: comment.id,
      poll: poll.id,
      pollOption: poll.options[0]?.id ?? '',
      claim,
      workspace: workspace.id,
      member: userId,
      schedule: schedule.id,
      webhook: webhook.id,
      delivery: delivery.deliveryId,
      attachment: attachment.id,
      invoice: invoice?.id ?? '',
      shareToken: new URL(share.shareUrl).pathname.split('/').at(-1) ?? '',
    },
  };
}

async function firstAgent(h: Harness, key: string, debate: string): Promise<string> {
  const res = await h.request<{ agents: { agent: string }[] }>('GET', `/api/debates/${debate}/analytics`, {
    key,
  });
  const agent = res.json?.agents?.[0]?.agent;
  if (!agent) throw new Error(`debate ${debate} has no agent turns: ${res.status} ${res.text}`);
  return agent;
}
