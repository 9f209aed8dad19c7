import { z } from 'zod';
import { CLAIM_ID_PATTERN } from './events.ts';
import { UuidInput } from './ids.ts';
import { visibleText } from './text.ts';

/** Longest claimId accepted: claimIdOf's agent part is at most 100 characters, attempt and round are short. */
export const CLAIM_ID_MAX = 120;
export const POLL_QUESTION_MAX = 200;
export const POLL_OPTION_MAX = 200;
export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 6;
/** Polls one debate holds at most: bounds GET /api/debates/:debateId/polls, which is not paginated. */
export const POLLS_PER_DEBATE_MAX = 50;

/** An agent message's identifier, as the argument and rebuttal events carry it (claimIdOf). */
export const ClaimId = z
  .string()
  .max(CLAIM_ID_MAX)
  .regex(CLAIM_ID_PATTERN, { message: 'Not a claimId: a<attempt>-r<round>-<agent>, e.g. a1-r2-risk-analyst' })
  .meta({
    description: 'The claimId of an argument or rebuttal event of the debate, e.g. a1-r2-risk-analyst',
  });

/** What a reader says of a claim; neutral takes a vote back. */
export const ArgumentVoteValue = z.enum(['agree', 'disagree', 'neutral']);
export type ArgumentVoteValue = z.infer<typeof ArgumentVoteValue>;

/** A vote as stored and counted: neutral is the absence of one. */
export const StoredArgumentVote = z.enum(['agree', 'disagree']);
export type StoredArgumentVote = z.infer<typeof StoredArgumentVote>;

/** GET /api/debates/:debateId/votes and GET /api/debates/:debateId/polls. */
export const DebateReactionsInput = z.object({ debateId: UuidInput });

/** POST /api/debates/:debateId/votes. */
export const CastArgumentVoteInput = z.strictObject({
  debateId: UuidInput,
  claimId: ClaimId,
  vote: ArgumentVoteValue.meta({ description: 'agree or disagree sets the vote; neutral removes it' }),
});
export type CastArgumentVoteInput = z.infer<typeof CastArgumentVoteInput>;

/** DELETE /api/debates/:debateId/votes/:claimId. */
export const ArgumentVoteIdInput = z.object({ debateId: UuidInput, claimId: ClaimId });

/** The votes on one claim. */
export const ClaimTally = z
  .object({
    agree: z.number().int(),
    disagree: z.number().int(),
    userVote: StoredArgumentVote.nullable().meta({
      description: "The caller's own vote; null when they have none or are not signed in",
    }),
  })
  .meta({ id: 'ClaimTally' });
export type ClaimTally = z.infer<typeof ClaimTally>;

/** GET /api/debates/:debateId/votes. */
export const ArgumentVotes = z
  .object({
    votes: z.record(z.string(), ClaimTally).meta({
      description:
        'claimId to its tally, for every claim with at least one vote (in claimId order). A claim that is ' +
        'absent has no votes: read it as 0 agree, 0 disagree, userVote null.',
    }),
  })
  .meta({ id: 'ArgumentVotes' });
export type ArgumentVotes = z.infer<typeof ArgumentVotes>;

/** POST /api/debates/:debateId/votes: the claim's tally after the vote. */
export const ClaimVotes = ClaimTally.extend({ claimId: z.string() }).meta({ id: 'ClaimVotes' });
export type ClaimVotes = z.infer<typeof ClaimVotes>;

const PollQuestion = visibleText(1, POLL_QUESTION_MAX);
const PollOptionLabel = visibleText(1, POLL_OPTION_MAX);

/** POST /api/debates/:debateId/polls. */
export const CreatePollInput = z.strictObject({
  debateId: UuidInput,
  question: PollQuestion,
  options: z
    .array(PollOptionLabel)
    .min(POLL_OPTIONS_MIN)
    .max(POLL_OPTIONS_MAX)
    .superRefine((labels, ctx) => {
      // Two options a reader cannot tell apart would split the votes of one answer.
      const seen = new Set<string>();
      labels.forEach((label, index) => {
        const key = label.toLocaleLowerCase();
        if (seen.has(key))
          ctx.addIssue({ code: 'custom', path: [index], message: 'This option is given twice' });
        seen.add(key);
      });
    })
    .meta({ description: '2–6 distinct labels (letter case aside), in the order readers see them' }),
});
export type CreatePollInput = z.infer<typeof CreatePollInput>;

/** PATCH and DELETE /api/debates/:debateId/polls/:pollId. */
export const PollIdInput = z.object({ debateId: UuidInput, pollId: UuidInput });

/** POST /api/debates/:debateId/polls/:pollId/vote. */
export const PollVoteInput = z.strictObject({
  debateId: UuidInput,
  pollId: UuidInput,
  optionId: UuidInput.meta({ description: 'The id of one of the poll’s options' }),
});
export type PollVoteInput = z.infer<typeof PollVoteInput>;

export const PollStatus = z.enum(['open', 'closed']);
export type PollStatus = z.infer<typeof PollStatus>;

export const PollOption = z.object({ id: z.uuid(), label: z.string() }).meta({ id: 'PollOption' });
export type PollOption = z.infer<typeof PollOption>;

export const Poll = z
  .object({
    id: z.uuid(),
    debateId: z.uuid(),
    question: z.string(),
    options: z.array(PollOption).meta({ description: 'In the order they were given' }),
    status: PollStatus,
    createdAt: z.iso.datetime(),
    closedAt: z.iso.datetime().nullable().meta({ description: 'When it was closed; null while open' }),
    tallies: z.record(z.string(), z.number().int()).meta({
      description: 'Option id to its number of votes, for every option (0 included); frozen once closed',
    }),
    totalVotes: z.number().int(),
    userVote: z.uuid().nullable().meta({
      description: 'The option id the caller voted for; null when they have not or are not signed in',
    }),
  })
  .meta({ id: 'Poll' });
export type Poll = z.infer<typeof Poll>;

/** GET /api/debates/:debateId/polls. */
export const PollList = z
  .object({ polls: z.array(Poll).meta({ description: 'Oldest first' }) })
  .meta({ id: 'PollList' });
export type PollList = z.infer<typeof PollList>;
