import type { Core } from '@verdict/core';
import { AppError, ConfigError, liveHolder, loadConfig, OperatorError } from '@verdict/core/entry';
import { runThroughServer } from './admin/channel-client.ts';
import { USAGE } from './admin/usage.ts';

/**
 * `npm run admin -- <command>`: operator tasks on the configured database. In embedded mode the process
 * that holds DATA_DIR owns the database: with none, this one takes the lock and works directly; with a
 * server running, the server runs the command (the same `runAdminCommand`) over its admin channel.
 *
 * Only what it needs is loaded: help, and a command for a running embedded server, need the configuration
 * and the channel, not the rest of core (a few thousand modules, which a command on the database loads).
 */
async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const print = (lines: string[]) => {
    for (const line of lines) process.stdout.write(`${line}\n`);
  };
  const say = (line: string) => process.stderr.write(`admin: ${line}\n`);
  const config = loadConfig();
  const { database } = config;
  // A server on DATA_DIR runs the command. Should it have stopped by the time the command reaches it, the
  // channel says so; should one start after this look, taking the lock below finds it.
  const dataDir = database.kind === 'pglite' ? database.dataDir : null;
  const server = dataDir === null ? null : await liveHolder(dataDir);
  if (dataDir !== null && argv[0] !== 'create-database' && server?.role === 'server') {
    print(await runThroughServer(dataDir, server, argv, say));
    return 0;
  }
  const { createCore, DataDirInUseError, withAuditContext } = await import('@verdict/core');
  const { createDatabaseCommand, operatorContext, runAdminCommand } = await import('./admin/commands.ts');
  if (argv[0] === 'create-database') {
    print(await createDatabaseCommand(config));
    return 0;
  }
  let core: Core;
  try {
    core = await createCore(config, { lockRole: 'admin' });
  } catch (err) {
    if (!(err instanceof DataDirInUseError && err.holder?.role === 'server')) throw err;
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
