import type { StoredEvent } from '../stored-event.ts';
import type { FeedFollower } from './feeds.ts';

/**
 * A follower as its feed holds it: events at or before its `afterSeq` held back, its end told once (whether
 * heard or found by the look after joining). A class, not closures: an idle stream holds one for hours.
 */
export class Membership implements FeedFollower {
  readonly #afterSeq: number;
  readonly #follower: FeedFollower;
  #ended = false;

  constructor(afterSeq: number, follower: FeedFollower) {
    this.#afterSeq = afterSeq;
    this.#follower = follower;
  }

  onEvent(event: StoredEvent) {
    if (event.seq > this.#afterSeq) this.#follower.onEvent(event);
  }

  onLost() {
    this.#follower.onLost();
  }

  onEnded() {
    if (this.#ended) return;
    this.#ended = true;
    this.#follower.onEnded();
  }
}
