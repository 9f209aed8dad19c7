/**
 * The API (no engine: the history suite only reads) on the history suite's filled PostgreSQL
 * (bench/lib/history-fill.ts), with an embedder that answers a fixed vector of the fill's model, so that
 * similar debates and search's semantic part run their real lookups without a provider. Prints
 * {"port"} when listening; the accounts and keys are the fill's (the suite reads them from the database).
 */
import { buildServer } from '@verdict/api';
import { createCore, type Embedder, loadConfig } from '@verdict/core';
import { HISTORY } from '../lib/history-fill.ts';
import { listenAndReport } from '../lib/spawn-server.ts';

const question = Array.from({ length: HISTORY.embeddingDimensions }, (_, i) => Math.sin(i + 1));
const embedder: Embedder = { model: HISTORY.embeddingModel, relatedAbove: 0, embed: async () => question };

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
const core = await createCore(config, { embedder });
const app = await buildServer({ core });
await listenAndReport(
  app,
  () => core.close(),
  (port) => ({ port }),
);
