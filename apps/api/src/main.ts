import {
  ConfigError,
  createCore,
  engineNodeFor,
  loadConfig,
  lockDataDir,
  OperatorError,
} from '@verdict/core';
import pino from 'pino';
import { serveAdminChannel } from './admin/channel-server.ts';
import { buildServer } from './http/server.ts';

/**
 * Composition root of the API process. In embedded mode (no NATS_URL) it also runs an engine node, since
 * nothing else could run the debates. With the embedded database it owns DATA_DIR (a lock) and serves
 * `npm run admin` on it (the admin channel).
 */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = pino({ level: config.logLevel });
  const lock =
    config.database.kind === 'pglite' ? await lockDataDir(config.database.dataDir, 'server') : undefined;
  const core = await createCore(config, {
    onBackgroundError: (err) => logger.warn({ err }, 'background task failed'),
    log: (message) => logger.info(message),
    dataDirLock: lock,
  });
  const app = await buildServer({ core, logger });
  const mode =
    config.database.kind === 'pglite' ? `embedded PGlite in ${config.database.dataDir}` : 'PostgreSQL';
  logger.info(`database: ${mode}; bus: ${config.nats.kind === 'nats' ? 'NATS' : 'in-process'}`);
  const adminChannel = lock ? await serveAdminChannel(core, lock, logger) : null;
  const engine =
    config.nats.kind === 'memory'
      ? engineNodeFor(core, (level, message, details) => logger[level](details ?? {}, message))
      : null;
  engine?.start();
  if (engine?.simulated) {
    logger.info('engine: in-process, on the SIMULATED debater model (no provider key configured)');
  }

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await app.close();
    await adminChannel?.close();
    await engine?.stop();
    await core.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  logger.info(`API reference: ${config.publicBaseUrl}/docs`);
}

try {
  await main();
} catch (err) {
  if (!(err instanceof OperatorError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
