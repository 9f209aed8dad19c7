import './startup/uws-runtime.ts';
import {
  ConfigError,
  type Core,
  createCore,
  createLogger,
  describeEmbeddings,
  describeModels,
  type Logger,
  loadConfig,
  lockDataDir,
  nudgeMemoryReducer,
  OperatorError,
  onShutdownSignal,
  startTracing,
  withTimeout,
} from '@verdict/core';
import { createEmbedder } from '@verdict/engine/embedders';
import { serveAdminChannel } from './admin/channel-server.ts';
import { createLifecycle } from './http/lifecycle.ts';
import { alsoServeMetrics } from './http/metrics.ts';
import { buildServer } from './http/server.ts';
import { assertPortFree, portRefusal } from './startup/port-check.ts';
import { readyLine } from './startup/ready-line.ts';

/**
 * Composition root of the API process. In embedded mode (no NATS_URL) it also runs an engine node, since
 * nothing else could run the debates. With the embedded database it owns DATA_DIR (a lock) and serves
 * `npm run admin` on it (the admin channel).
 */
async function main() {
  // First: spans started before it would belong to no provider. Off unless an OTLP endpoint is set.
  const tracing = startTracing('verdict-api');
  // What a burst (of stream opens, of debates) grew is given back once the process goes quiet.
  nudgeMemoryReducer();
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel });
  // The refusals that need no slow work come first: DATA_DIR in use, then the port.
  const lock =
    config.database.kind === 'pglite' ? await lockDataDir(config.database.dataDir, 'server') : undefined;
  await assertPortFree(config.host, config.port).catch(async (err) => {
    await lock?.release();
    throw err;
  });
  const core = await createCore(config, {
    onBackgroundError: (err) => logger.warn({ err }, 'background task failed'),
    log: (message) => logger.info(message),
    onTransactionTimeout: (report) =>
      logger.error(report, 'a database transaction was open too long and was rolled back'),
    dataDirLock: lock,
    // The question of GET /api/similar is embedded here, with the model the engine nodes embed debates with.
    embedder: createEmbedder(config.providers),
  });
  const lifecycle = createLifecycle();
  const app = await buildServer({ core, logger, lifecycle });
  await announce(core, logger);
  const adminChannel = lock ? await serveAdminChannel(core, lock, logger) : null;
  const engine = await inProcessEngine(core, logger);
  if (engine) alsoServeMetrics(app, engine.metrics);
  engine?.start();
  if (engine?.simulated) {
    logger.info('engine: in-process, on the SIMULATED debater model (no provider key configured)');
  }

  // Closing the server ends the streams with a hint to reconnect and lets requests in flight finish
  // (SHUTDOWN_GRACE_MS bounds both it and the embedded engine node's hand-back).
  const { delayMs, graceMs } = config.shutdown;
  const stop = async () => {
    await app.close();
    await adminChannel?.close();
    if (engine) {
      await withTimeout(engine.stop(), graceMs, 'stopping the engine node').catch((err) =>
        logger.warn({ err }, 'the engine node did not stop in time; its debates resume at the next start'),
      );
    }
    await core.close();
    // Spans a collector could not take in time are lost; the shutdown goes on.
    await tracing
      .shutdown()
      .catch((err) => logger.warn({ err }, 'tracing: the last spans were not all exported'));
  };
  onShutdownSignal(
    async (signal) => {
      lifecycle.drain();
      logger.info(
        { signal, delayMs, graceMs },
        'draining: /ready answers 503; then streams are told to reconnect',
      );
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      await stop();
      logger.info('stopped');
    },
    (err) => logger.error({ err }, 'shutdown failed'),
  );

  try {
    await app.listen({
      port: config.port,
      host: config.host,
      listenTextResolver: (address) => readyLine(config.publicBaseUrl, address),
    });
  } catch (err) {
    await stop();
    throw portRefusal(err, config.host, config.port);
  }
}

/**
 * The engine node of embedded mode (no NATS_URL), where nothing else runs the debates; null otherwise. Its
 * package (Effect, the actor, the workers: a few hundred modules) is loaded only where it runs.
 */
async function inProcessEngine(core: Core, logger: Logger) {
  if (core.config.nats.kind !== 'memory') return null;
  const { engineNodeFor } = await import('@verdict/engine');
  return engineNodeFor(core, (level, message, details) => logger[level](details ?? {}, message));
}

/** The configuration, or exit 2 with every problem of the environment, one a line. */
function loadConfigOrExit() {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

/** What the process runs on, said once at start: the database and bus, the models, the embeddings. */
async function announce(core: Core, logger: Logger) {
  const { config } = core;
  const mode =
    config.database.kind === 'pglite' ? `embedded PGlite in ${config.database.dataDir}` : 'PostgreSQL';
  logger.info(`database: ${mode}; bus: ${config.nats.kind === 'nats' ? 'NATS' : 'in-process'}`);
  logger.info(describeModels(config.providers));
  logger.info(
    core.similar.model
      ? `${describeEmbeddings(config.providers)}, stored as ${await core.similar.storage()}`
      : describeEmbeddings(config.providers),
  );
}

try {
  await main();
} catch (err) {
  if (!(err instanceof OperatorError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
