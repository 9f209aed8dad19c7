/** Slots of a beat's interval: a stream beats within an eighth of the interval of its due time. */
const SLOTS = 8;

type Wheel = { slots: Set<() => void>[]; next: number; timer: NodeJS.Timeout | null; members: number };

/** One wheel per interval in use (the streams' 15 s keep-alive, the notifications' 30 s ping …). */
const wheels = new Map<number, Wheel>();

/**
 * Calls `beat` every `everyMs` (within an eighth of it) until the returned stop, like setInterval, but
 * every stream of the process beating at that interval shares one timer: a wheel of eight slots, one
 * slot's beats per eighth of the interval, each stream in the slot of the moment it started, so the beats
 * stay spread as the streams' opens were. Ten thousand idle streams kept ten thousand timers (a twentieth
 * of their heap) and woke the process for each. A beat that throws does not stop the others'.
 */
export function everyBeat(everyMs: number, beat: () => void): () => void {
  let wheel = wheels.get(everyMs);
  if (!wheel) {
    wheel = { slots: Array.from({ length: SLOTS }, () => new Set()), next: 0, timer: null, members: 0 };
    wheels.set(everyMs, wheel);
  }
  const own = wheel;
  // The slot that comes round last: the first beat falls a whole interval from now, give or take a slot.
  const slot = own.slots[(own.next + SLOTS - 1) % SLOTS] as Set<() => void>;
  slot.add(beat);
  own.members += 1;
  own.timer ??= setInterval(() => turn(own), everyMs / SLOTS);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    slot.delete(beat);
    own.members -= 1;
    if (own.members > 0 || !own.timer) return;
    clearInterval(own.timer);
    own.timer = null;
  };
}

function turn(wheel: Wheel) {
  const slot = wheel.slots[wheel.next] as Set<() => void>;
  wheel.next = (wheel.next + 1) % SLOTS;
  for (const beat of [...slot]) {
    try {
      beat();
    } catch {
      // One stream's failure is its own: its route ends it.
    }
  }
}
