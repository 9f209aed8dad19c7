import { closePoll } from './polls/close-poll.ts';
import { createPoll } from './polls/create-poll.ts';
import { listPolls } from './polls/list-polls.ts';
import type { PollResources } from './polls/poll-resources.ts';
import { removePoll } from './polls/remove-poll.ts';
import { voteInPoll } from './polls/vote-in-poll.ts';

/**
 * Audience polls on a debate. Its owner creates, closes and deletes them; readers of the debate see them
 * (anyone on a public debate, signed in or not) and signed-in readers vote, one choice each, until the poll
 * is closed. A private debate of someone else is FORBIDDEN, a missing or deleted one NOT_FOUND, as
 * debateAccess' audience decides; a poll of another debate is NOT_FOUND like a missing one. One operation a
 * file, under polls/.
 */
export function createPolls(resources: PollResources) {
  return {
    list: listPolls(resources),
    create: createPoll(resources),
    vote: voteInPoll(resources),
    close: closePoll(resources),
    remove: removePoll(resources),
  };
}

export type Polls = ReturnType<typeof createPolls>;
