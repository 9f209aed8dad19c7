import { VERSION } from '@verdict/sdk';
import { Command, CommanderError } from 'commander';
import { registerAccountCommands } from './commands/account.ts';
import { registerDebateCommands } from './commands/debates.ts';
import { EXIT, exitCodeOf, messageOf } from './exit-codes.ts';
import { serveMcp } from './mcp.ts';

/** Runs the CLI on `argv` (process.argv's shape) and answers the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('verdict')
    .description(
      'The Verdict API from the command line. Exit codes: 0 ok, 1 failed, 2 usage, 3 auth, 4 limits.',
    )
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();
  registerAccountCommands(program);
  registerDebateCommands(program, (code) => {
    exitCode = code;
  });
  program
    .command('mcp')
    .description('Serve the Model Context Protocol over stdio (tools for agents)')
    .action(async () => {
      await serveMcp();
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
