import {
  ConfigError,
  createCore,
  createLogger,
  describeEmbeddings,
  describeModels,
  loadConfig,
  nudgeMemoryReducer,
  OperatorError,
  onShutdownSignal,
  startTracing,
  withTimeout,
} from '@verdict/core';
import { engineNodeFor } from '@verdict/engine';
import { serveOperatorEndpoints } from './operator-listener.ts';

/**
 * Composition root of an engine node in distributed mode: PostgreSQL, NATS JetStream, the configured
 * providers. Run as many as you like; they share the job queue. (Embedded mode runs the same node inside
 * `npm start`.)
 */
async function main() {
  // First: spans started before it would belong to no provider. Off unless an OTLP endpoint is set.
  const tracing = startTracing('verdict-engine');
  // What a burst (of stream opens, of debates) grew is given back once the process goes quiet.
  nudgeMemoryReducer();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
    if (config.database.kind !== 'postgres' || config.nats.kind !== 'nats') {
      throw new ConfigError(
        'The engine process needs DATABASE_URL and NATS_URL (embedded mode runs the engine inside npm start)',
      );
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel, base: { role: 'engine' } });
  const core = await createCore(config, {
    onBackgroundError: (err) => logger.warn({ err }, 'background task failed'),
    log: (message) => logger.info(message),
    onTransactionTimeout: (report) =>
      logger.error(report, 'a database transaction was open too long and was rolled back'),
  });
  logger.info(describeModels(config.providers));
  logger.info(describeEmbeddings(config.providers));
  const node = engineNodeFor(core, (level, message, details) => logger[level](details ?? {}, message));
  node.start();
  let draining = false;
  const operator =
    config.metricsPort === null
      ? null
      : await serveOperatorEndpoints(
          {
            registry: node.metrics,
            checkDatabase: core.checkDatabase,
            checkReadiness: () => core.checkReadiness(draining),
          },
          { host: config.host, port: config.metricsPort, token: config.metricsToken },
        );
  if (operator) logger.info({ port: config.metricsPort }, 'serving /metrics, /health and /ready');
  logger.info(
    // The node's id is what its debates' leases name (debates.lease_owner): an operator's way from one to the other.
    { slots: config.engine.slots, nodeId: node.nodeId },
    node.simulated
      ? 'engine node started on the SIMULATED provider (no provider key configured)'
      : 'engine node started',
  );

  // The node stops pulling jobs, and each job hands its debate back from its last stored step, so another
  // node resumes it at once. A hand-back that outlasts the grace is left to the node's presence: it ends
  // with this process, and the others take its debates over then.
  onShutdownSignal(
    async (signal) => {
      draining = true;
      logger.info({ signal }, 'engine node stopping; running debates go back to the queue');
      await withTimeout(node.stop(), config.shutdown.graceMs, 'handing the debates back').catch((err) =>
        logger.warn(
          { err },
          'engine node: not every debate was handed back in time; other nodes take them over',
        ),
      );
      operator?.close();
      await core.close();
      // Spans a collector could not take in time are lost; the shutdown goes on.
      await tracing
        .shutdown()
        .catch((err) => logger.warn({ err }, 'tracing: the last spans were not all exported'));
      logger.info('engine node stopped');
    },
    (err) => logger.error({ err }, 'engine node: shutdown failed'),
  );
}

try {
  await main();
} catch (err) {
  // A PostgreSQL or NATS it cannot start on: the message says what and where, in one line.
  if (!(err instanceof OperatorError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
