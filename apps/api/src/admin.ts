import { AppError, ConfigError, createCore, loadConfig, OperatorError } from '@verdict/core';
import { runAdminCommand, USAGE } from './admin/commands.ts';

/** `npm run admin -- <command>`: operator tasks on the configured database. */
async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const core = await createCore(loadConfig(), { lockRole: 'admin' });
  try {
    for (const line of await runAdminCommand(core, argv)) process.stdout.write(`${line}\n`);
    return 0;
  } finally {
    await core.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  const known =
    err instanceof AppError ||
    err instanceof ConfigError ||
    err instanceof OperatorError ||
    (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  process.stderr.write(`admin: ${known ? (err as Error).message : String((err as Error).stack ?? err)}\n`);
  process.exitCode = 1;
}
