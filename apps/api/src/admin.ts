import {
  AppError,
  ConfigError,
  type Core,
  createCore,
  DataDirInUseError,
  loadConfig,
  OperatorError,
  withAuditContext,
} from '@verdict/core';
import { runThroughServer } from './admin/channel-client.ts';
import { createDatabaseCommand, operatorContext, runAdminCommand, USAGE } from './admin/commands.ts';

/**
 * `npm run admin -- <command>`: operator tasks on the configured database. In embedded mode the process
 * that holds DATA_DIR owns the database: with none, this one takes the lock and works directly; with a
 * server running, the server runs the command (the same `runAdminCommand`) over its admin channel.
 */
async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const print = (lines: string[]) => {
    for (const line of lines) process.stdout.write(`${line}\n`);
  };
  if (argv[0] === 'create-database') {
    print(await createDatabaseCommand(loadConfig()));
    return 0;
  }
  let core: Core;
  try {
    core = await createCore(loadConfig(), { lockRole: 'admin' });
  } catch (err) {
    if (!(err instanceof DataDirInUseError && err.holder?.role === 'server')) throw err;
    const say = (line: string) => process.stderr.write(`admin: ${line}\n`);
    print(await runThroughServer(err.dir, err.holder, argv, say));
    return 0;
  }
  try {
    print(await withAuditContext(operatorContext(argv), () => runAdminCommand(core, argv)));
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
