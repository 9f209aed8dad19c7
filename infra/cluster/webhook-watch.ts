import { type ReceivedDelivery, startWebhookReceiver } from '@verdict/core/testing';
import type { Cluster } from './cluster.ts';

const EVENTS = ['debate.created', 'debate.completed'] as const;

/**
 * A user's webhook receiver on the machine (the bridge's address, which no fault cuts), registered through
 * the API for debates' creation and completion. The receiver refuses the first attempt of one delivery in
 * `refuseOneIn` with a 503, so retries (and their stable ids) are part of every run. What it received is the
 * client's own record the checks read.
 */
export async function startWebhookWatch(
  cluster: Cluster,
  cookie: string,
  options: { refuseOneIn: number; random: () => number },
) {
  const receiver = await startWebhookReceiver(cluster.network.gatewayIp);
  const refusedOnce = new Set<string>();
  receiver.reply((delivery) => {
    const id = String(delivery.headers['webhook-id']);
    if (!refusedOnce.has(id) && options.random() < 1 / options.refuseOneIn) {
      refusedOnce.add(id);
      return { status: 503, body: 'busy, try again' };
    }
    return { status: 200, body: 'ok' };
  });
  const api = cluster.apis[0] as Cluster['apis'][number];
  const res = await fetch(`${api.baseUrl}/api/webhooks`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}/hooks`, events: EVENTS, description: 'chaos run' }),
  });
  if (res.status !== 201) throw new Error(`webhook registration answered ${res.status}: ${await res.text()}`);
  return { receiver, refusedOnce };
}

/**
 * Every debate of `ids` had each event delivered at least once under one delivery id (a retry or a
 * redelivery by another node carries the same id), waiting up to `ms` for deliveries still due (a refused
 * first attempt is tried again 5 s later). Also: no delivery id ever named two different events.
 */
export async function webhookViolations(
  received: ReceivedDelivery[],
  ids: string[],
  ms: number,
): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const violations = check(received, ids);
    if (violations.length === 0 || Date.now() >= deadline) return violations;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function check(received: ReceivedDelivery[], ids: string[]): string[] {
  const violations: string[] = [];
  const deliveryIds = new Map<string, Set<string>>();
  const eventOfDelivery = new Map<string, string>();
  for (const delivery of received) {
    const body = JSON.parse(delivery.body) as { event: string; data: { debateId?: string } };
    const deliveryId = String(delivery.headers['webhook-id']);
    const key = `${body.data.debateId} ${body.event}`;
    deliveryIds.set(key, (deliveryIds.get(key) ?? new Set()).add(deliveryId));
    const seen = eventOfDelivery.get(deliveryId);
    if (seen && seen !== key) violations.push(`delivery ${deliveryId} carried both ${seen} and ${key}`);
    eventOfDelivery.set(deliveryId, key);
  }
  for (const id of ids) {
    for (const event of EVENTS) {
      const count = deliveryIds.get(`${id} ${event}`)?.size ?? 0;
      if (count !== 1) violations.push(`debate ${id}: ${event} delivered under ${count} delivery ids`);
    }
  }
  return violations;
}
