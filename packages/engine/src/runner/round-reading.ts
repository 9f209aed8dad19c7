import type { Citation } from '@verdict/contracts';
import { citationsInText, type PassageText, withGrounded } from '@verdict/core';
import * as Effect from 'effect/Effect';
import * as Schedule from 'effect/Schedule';
import { logLine } from '../logging.ts';
import type { AttachedText } from '../machine/prompts.ts';
import type { LlmResponse } from '../providers/port.ts';
import type { ActorShared } from './actor-shared.ts';
import { checkedCitations } from './evidence.ts';

/** How a failed lookup of cited passages is tried again: 3 more times, 100, 200 and 400 ms apart. */
const CHECK_RETRIES = { schedule: Schedule.exponential('100 millis'), times: 3 };

/** What a debate's turns read besides the debate itself: its attachments, or its corpus with the evidence engine. */
export type RoundReading = {
  /** The evidence engine is on: turns get passages (and their citations are checked), not attachments. */
  readonly evidenceOn: boolean;
  /** The round's attachments, read once for the round. */
  readonly attachedFor: (round: number) => Effect.Effect<AttachedText[]>;
  /** The passages a turn of `round` gets for `query` (none without the evidence engine). */
  readonly passagesFor: (round: number, query: string) => Effect.Effect<PassageText[]>;
  /** A turn's citations, checked against the corpus; undefined without the evidence engine. */
  readonly citationsOf: (
    content: string,
    grounded: LlmResponse['citations'],
    given: PassageText[],
  ) => Effect.Effect<Citation[] | undefined>;
};

/**
 * One read per round, shared by its turns, so every agent of a round sees the same documents. A failed read
 * leaves the round without them rather than failing the debate — the documents add to the agents' prompts,
 * they are not the question, and the turns' own storage will tell if the database is really gone — and says
 * so in the log, once for the round.
 *
 * With the evidence engine on, the corpus is brought up to date once per round (attachments ready since the
 * last round join it), and each turn retrieves its own passages. A failed update or retrieval leaves the turn
 * with what there is, as a failed attachment read does; checking citations must not fail quietly.
 */
export function roundReading({ deps, services }: ActorShared, debateId: string): RoundReading {
  const runSync = Effect.runSyncWith(services);
  const warn = (message: string, error: unknown) =>
    runSync(logLine('warn', `debate ${debateId}: ${message}`, { err: error }));
  const { evidence, readAttachments } = deps;
  const attachedByRound = new Map<number, Promise<AttachedText[]>>();
  const preparedByRound = new Map<number, Promise<void>>();
  return {
    evidenceOn: evidence !== undefined,
    attachedFor: (round) => {
      let read = attachedByRound.get(round);
      if (!read) {
        read = readAttachments
          ? readAttachments().catch((error: unknown) => {
              warn(`round ${round} runs without its attachments (reading them failed)`, error);
              return [];
            })
          : Promise.resolve([]);
        attachedByRound.set(round, read);
      }
      return Effect.promise(() => read);
    },
    passagesFor: (round, query) =>
      Effect.promise(async () => {
        if (!evidence) return [];
        let prepared = preparedByRound.get(round);
        if (!prepared) {
          prepared = evidence.prepare().catch((error: unknown) => {
            warn(`round ${round} cites the corpus as it was (updating it failed)`, error);
          });
          preparedByRound.set(round, prepared);
        }
        await prepared;
        return evidence.retrieve(query).catch((error: unknown) => {
          warn(`a round ${round} turn runs without passages (retrieval failed)`, error);
          return [];
        });
      }),
    // Checking looks up only ids the turn was not given; a database blip is retried a few times before the
    // round fails (and the job is handed on), so a paid answer is not lost to one failed read.
    citationsOf: (content, grounded, given) =>
      evidence
        ? Effect.tryPromise(() =>
            checkedCitations(evidence, withGrounded(citationsInText(content), grounded ?? []), given),
          ).pipe(Effect.retry(CHECK_RETRIES), Effect.orDie)
        : Effect.succeed(undefined),
  };
}
