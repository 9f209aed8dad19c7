import { VERSION } from '@verdict/sdk';
import { Command, CommanderError } from 'commander';
import { registerAccountCommands } from './commands/account.ts';
import { registerDebateCommands } from './commands/debates.ts';
import { registerEvidenceCommands } from './commands/evidence.ts';
import { registerOutcomeCommands } from './commands/outcomes.ts';
import { type CommandContext, clientFromConfig, type RetryPolicy } from './config.ts';
import { EXIT, exitCodeOf, messageOf } from './exit-codes.ts';
import { serveMcp } from './mcp.ts';
import { MAX_RATE_LIMIT_WAIT_MS } from './retry-wait.ts';

/** Runs the CLI on `argv` (process.argv's shape) and answers the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('verdict')
    .description(
      'The Verdict API from the command line. Exit codes: 0 ok, 1 failed, 2 usage, 3 auth, 4 limits.',
    )
    .version(VERSION)
    .option(
      '--no-retry',
      `fail at once on a rate limit or an unavailable server, instead of waiting (a rate limit up to ${MAX_RATE_LIMIT_WAIT_MS / 1000} s) and trying again`,
    )
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError()
    .exitOverride();
  // Read when a command runs: --no-retry may come after the command's name.
  const policy = (): RetryPolicy => ({
    retry: program.opts<{ retry: boolean }>().retry,
    notices: process.stderr,
  });
  const context: CommandContext = {
    policy,
    connect: () => clientFromConfig(policy()),
    setExit: (code) => {
      exitCode = code;
    },
  };
  registerAccountCommands(program, context);
  registerDebateCommands(program, context);
  registerEvidenceCommands(program, context);
  registerOutcomeCommands(program, context);
  program
    .command('mcp')
    .description('Serve the Model Context Protocol over stdio (tools for agents)')
    .action(async () => {
      await serveMcp(await context.connect());
    });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here too, with exit code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    process.stderr.write(`verdict: ${messageOf(error)}\n`);
    return exitCodeOf(error);
  }
}
