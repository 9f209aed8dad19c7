import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { TroubleReport } from './trouble-streak.ts';

/** How often the connection's server is asked for JetStream's account info, and how long one ask may take. */
const PROBE_EVERY_MS = 1000;
/** Failed asks in a row before the connection moves to another server. */
const FAILURES_TO_LEAVE = 3;

/**
 * Moves the connection to another server of NATS_URL when the one it is on has lost JetStream: a server cut
 * off from the rest of its cluster keeps its clients' connections open and answers their pings, so nats.js
 * stays on it, while every JetStream request through it (job pulls, publishes) fails or goes unanswered
 * until the partition heals. Once a second the server is asked for the account's JetStream info (answered
 * only where the JetStream cluster is reachable); after three failures in a row the client reconnects, which
 * takes the next server of its list. Only with more than one server to go to: a lone server's client has
 * nowhere else, and its own reconnection handles the server going away.
 */
export function leaveStrandedServer(nc: NatsConnection, servers: number, onTrouble: TroubleReport) {
  if (servers < 2) return { stop: () => {} };
  let failures = 0;
  let stopped = false;
  const probe = async () => {
    const jsm = await jetstreamManager(nc, { timeout: PROBE_EVERY_MS, checkAPI: false });
    while (!stopped && !nc.isClosed()) {
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      if (stopped || nc.isClosed() || nc.isDraining()) return;
      // A server outside any cluster cannot be cut off from one: nothing to probe (NATS_URL may list servers
      // that are not clustered, as fallbacks).
      if (!nc.info?.cluster) continue;
      try {
        await jsm.getAccountInfo();
        failures = 0;
      } catch (error) {
        failures += 1;
        if (failures < FAILURES_TO_LEAVE) continue;
        failures = 0;
        const server = nc.getServer();
        onTrouble(`JetStream unreachable through NATS server ${server}; moving to another server`, error);
        await nc.reconnect().catch(() => {});
      }
    }
  };
  void probe().catch(() => {});
  return {
    stop: () => {
      stopped = true;
    },
  };
}
