import type { CommandReply } from '@verdict/core';
import { Deferred, Effect } from 'effect';
import { EngineBus, EngineProbe } from '../../services.ts';
import { BusUnavailable } from '../../store/errors.ts';
import { applyCommand } from '../commands.ts';
import type { ClaimedJob } from './claimed-job.ts';

/** Commands for this debate are answered from the moment it is claimed; early ones wait for the actor. */
export const serveCommands = (job: ClaimedJob) =>
  Effect.gen(function* () {
    const bus = yield* EngineBus;
    const probe = yield* EngineProbe;
    // The bus calls `answer` outside any fiber: what it runs, it runs on the node's services.
    const run = Effect.runPromiseWith(yield* Effect.context<never>());
    const answer = async (
      command: Parameters<typeof applyCommand>[1],
    ): Promise<CommandReply | 'no_engine'> => {
      if (!Deferred.isDoneUnsafe(job.ready)) {
        probe.notice({ _tag: 'CommandAwaitingActor', debateId: job.lease.debateId });
      }
      const current = await run(Deferred.await(job.ready));
      if (!current) return 'no_engine';
      if (command.type === 'cancel') job.cancelled = true;
      const reply = applyCommand(current, command);
      if (!reply.accepted || command.type === 'inspect' || command.type === 'cancel' || !job.log)
        return reply;
      // Accepted means stored: the command survives this node dying right after answering.
      const stored = await run(Effect.result(job.log.flush));
      return stored._tag === 'Success' ? reply : refusedUnstored(reply);
    };
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => bus.commands.serve(job.lease.debateId, answer),
        catch: (cause) => new BusUnavailable({ cause }),
      }),
      (stopServing) =>
        Effect.sync(() => {
          // No effect once the actor ran; otherwise commands still waiting learn nobody runs it here.
          Deferred.doneUnsafe(job.ready, Effect.succeed(null));
          stopServing();
        }),
    );
  });

const refusedUnstored = (reply: CommandReply): CommandReply => ({
  accepted: false,
  state: reply.state,
  message: 'The engine could not store the command; try again',
});
