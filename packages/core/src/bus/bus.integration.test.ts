import { randomUUID } from 'node:crypto';
import type { DebateEvent, Notification } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, testNatsUrl, uniqueSchema } from '../testing/index.ts';
import { memoryBus } from './memory.ts';
import { natsBus } from './nats.ts';
import type { Bus, JobHandle } from './ports.ts';

const event = (debateId: string, seq: number, attempt = 1): DebateEvent => ({
  debateId,
  attempt,
  seq,
  at: new Date().toISOString(),
  type: 'agent.thinking',
  data: { agent: `A${seq}`, round: 1 },
});

// The same contract for both adapters: embedded mode must behave like NATS.
describe.each([
  ['memory', async () => memoryBus()],
  [
    'NATS JetStream',
    async () => {
      const bus = await natsBus({
        servers: [testNatsUrl()],
        prefix: `${uniqueSchema('bus')}.`,
        jobAckWaitMs: 1000,
      });
      const close = async () => {
        await bus.deleteStreams();
        await bus.close();
      };
      return { ...bus, close };
    },
  ],
])('the %s bus', (_name, open) => {
  let bus: Bus;
  beforeAll(async () => {
    bus = await open();
  });
  afterAll(async () => {
    await bus.close();
  });

  it("delivers a user's notifications to that user's subscribers only, from subscription on, until they stop", async () => {
    const [alice, bob] = [randomUUID(), randomUUID()];
    const notification = (message: string): Notification => ({
      id: randomUUID(),
      type: 'comment',
      message,
      debateId: null,
      actorId: null,
      actorName: null,
      read: false,
      createdAt: new Date().toISOString(),
    });
    await bus.notifications.publish(alice, notification('before anyone listened'));
    const first: string[] = [];
    const second: string[] = [];
    const bobs: string[] = [];
    const stopFirst = await bus.notifications.subscribe(alice, (n) => first.push(n.message));
    const stopSecond = await bus.notifications.subscribe(alice, (n) => second.push(n.message));
    const stopBob = await bus.notifications.subscribe(bob, (n) => bobs.push(n.message));
    await bus.notifications.publish(alice, notification('one'));
    await eventually(
      () => first.length + second.length,
      (n) => n === 2,
    );
    stopFirst();
    await bus.notifications.publish(alice, notification('two'));
    await eventually(
      () => second.length,
      (n) => n === 2,
    );
    // A stopped subscriber hears nothing more; the other user's hears only what is meant for them. Delivery
    // is in order from one publisher, so once bob has his own notification, anything of alice's is in too.
    await bus.notifications.publish(bob, notification('for bob'));
    await eventually(
      () => bobs.length,
      (n) => n > 0,
    );
    expect(first).toEqual(['one']);
    expect(second).toEqual(['one', 'two']);
    expect(bobs).toEqual(['for bob']);
    stopSecond();
    stopBob();
  });

  it('replays a debate from the first event, then follows live, in order without gaps', async () => {
    const id = randomUUID();
    for (let seq = 1; seq <= 5; seq++) await bus.events.publish(event(id, seq));
    const seen: number[] = [];
    const stop = await bus.events.follow(id, 1, 0, (e) => seen.push(e.seq));
    await bus.events.publish(event(id, 6));
    await eventually(() => seen.length === 6, Boolean);
    stop();
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('resumes after a given sequence number and ignores other attempts', async () => {
    const id = randomUUID();
    for (let seq = 1; seq <= 4; seq++) await bus.events.publish(event(id, seq));
    await bus.events.publish(event(id, 1, 2));
    const seen: number[] = [];
    const stop = await bus.events.follow(id, 1, 2, (e) => seen.push(e.seq));
    // Events arrive in order: once a later one is in, anything the follower wrongly took before it is too.
    await bus.events.publish(event(id, 5));
    await eventually(() => seen.includes(5), Boolean);
    stop();
    expect(seen).toEqual([3, 4, 5]);
  });

  it("tells the seq of a debate's last event while it is of the attempt asked, else 0", async () => {
    const id = randomUUID();
    expect(await bus.events.lastSeq(id, 1)).toBe(0);
    for (let seq = 1; seq <= 3; seq++) await bus.events.publish(event(id, seq));
    await bus.events.publish(event(id, 2)); // a repeat changes nothing
    expect(await bus.events.lastSeq(id, 1)).toBe(3);
    expect(await bus.events.lastSeq(randomUUID(), 1)).toBe(0);
    // A retry's first event: the earlier attempt's events are no measure of what the new one published.
    await bus.events.publish(event(id, 1, 2));
    expect(await bus.events.lastSeq(id, 2)).toBe(1);
    expect(await bus.events.lastSeq(id, 1)).toBe(0);
  });

  it('drops a re-published event with the same debate, attempt and sequence', async () => {
    const id = randomUUID();
    await bus.events.publish(event(id, 1));
    await bus.events.publish(event(id, 1));
    await bus.events.publish(event(id, 2));
    const seen: number[] = [];
    const stop = await bus.events.follow(id, 1, 0, (e) => seen.push(e.seq));
    await bus.events.publish(event(id, 3));
    await eventually(() => seen.includes(3), Boolean);
    stop();
    expect(seen).toEqual([1, 2, 3]);
  });

  it('hands each job to one slot and redelivers one that was neither acked nor retried', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const handled: string[] = [];
    let dropOnce = true;
    const consumer = bus.jobs.consume(2, async (handle: JobHandle) => {
      if (handle.job.debateId === ids[0] && dropOnce) {
        dropOnce = false; // as if the node died mid-job: no ack
        return;
      }
      handled.push(handle.job.debateId);
      await handle.ack();
    });
    for (const id of ids) await bus.jobs.enqueue({ debateId: id, attempt: 1 });
    await eventually(() => handled.length === 3, Boolean, 10_000);
    await consumer.stop();
    expect([...handled].sort()).toEqual([...ids].sort());
  });

  it('pulls a job only for a free slot: a busy node leaves the next job to another and never sees it', async () => {
    const [first, second, last] = [randomUUID(), randomUUID(), randomUUID()];
    let release: () => void = () => {};
    const busy = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seenByBusy: string[] = [];
    const busyNode = bus.jobs.consume(1, async (handle) => {
      seenByBusy.push(handle.job.debateId);
      if (handle.job.debateId === first) {
        const alive = setInterval(() => handle.heartbeat(), 200);
        await busy;
        clearInterval(alive);
      }
      await handle.ack();
    });
    await bus.jobs.enqueue({ debateId: first, attempt: 1 });
    await eventually(() => seenByBusy.includes(first), Boolean);
    // Stored once enqueue returns: a pull the busy node had waiting would have taken it by now.
    await bus.jobs.enqueue({ debateId: second, attempt: 1 });
    const seenByFree: string[] = [];
    const freeNode = bus.jobs.consume(1, async (handle) => {
      seenByFree.push(handle.job.debateId);
      await handle.ack();
    });
    await eventually(() => seenByFree.includes(second), Boolean);
    await freeNode.stop();
    release();
    // A job the busy node had fetched ahead would reach its handler, once free, before one queued now.
    await bus.jobs.enqueue({ debateId: last, attempt: 1 });
    await eventually(() => seenByBusy.includes(last), Boolean, 10_000);
    await busyNode.stop();
    expect(seenByBusy).toEqual([first, last]);
    expect(seenByFree).toEqual([second]);
  });

  it('answers a command from the node serving the debate, and says no_engine when none does', async () => {
    const id = randomUUID();
    expect(await bus.commands.send(id, { type: 'pause' })).toBe('no_engine');
    const stop = await bus.commands.serve(id, async (command) => ({
      accepted: true,
      state: `got ${command.type}`,
    }));
    expect(await bus.commands.send(id, { type: 'skip' })).toEqual({ accepted: true, state: 'got skip' });
    stop();
    expect(await bus.commands.send(id, { type: 'resume' }, 500)).toBe('no_engine');

    // A node that gave the debate up answers so at once, and one whose handler throws does not go silent.
    const givenUp = randomUUID();
    const stopGivenUp = await bus.commands.serve(givenUp, async () => 'no_engine');
    expect(await bus.commands.send(givenUp, { type: 'pause' })).toBe('no_engine');
    stopGivenUp();
    const broken = randomUUID();
    const stopBroken = await bus.commands.serve(broken, async () => {
      throw new Error('handler defect');
    });
    const started = Date.now();
    await expect(bus.commands.send(broken, { type: 'pause' }, 3000)).resolves.toBe('no_engine');
    expect(Date.now() - started).toBeLessThan(1500);
    stopBroken();
  });

  it('says no_engine once the timeout passes when the serving node never answers', async () => {
    const id = randomUUID();
    const stop = await bus.commands.serve(id, () => new Promise(() => {}));
    const started = Date.now();
    await expect(bus.commands.send(id, { type: 'inspect' }, 200)).resolves.toBe('no_engine');
    expect(Date.now() - started).toBeLessThan(2000);
    stop();
  });

  it('hands BYOK keys from the process holding them, and nothing once released', async () => {
    const id = randomUUID();
    expect(await bus.keys.fetch(id)).toBeNull();
    const release = await bus.keys.hold(id, { anthropic: 'sk-test-123' });
    expect(await bus.keys.fetch(id)).toEqual({ anthropic: 'sk-test-123' });
    release();
    expect(await bus.keys.fetch(id)).toBeNull();
  });
});
