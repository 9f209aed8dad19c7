import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../config/config.ts';
import { type Core, type CoreOptions, createCore } from '../core.ts';
import { prepareTemplate } from '../db/pglite-template.ts';
import { readDebate } from './debates.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

export { auditTrailOf } from './audit-trail.ts';
export {
  insertPendingDebate,
  insertStoredDebate,
  type PendingDebate,
  readDebate,
  type StoredDebate,
} from './debates.ts';
export { type StreamingPair, startStreamingPair } from './streaming-replica.ts';
export { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * A cuttable proxy in front of the test PostgreSQL, and the DATABASE_URL through it: a process given that
 * URL sees an outage of its own when the proxy is cut, while the rest of the test reaches the database.
 */
export async function proxyTestDatabase(): Promise<{ proxy: TcpProxy; url: string }> {
  const database = new URL(testDatabaseUrl());
  const proxy = await startTcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
  database.port = String(proxy.port);
  return { proxy, url: database.toString() };
}
export { newUserCredentials, TEST_PASSWORD, uniqueEmail } from './users.ts';

/**
 * The PostgreSQL and NATS the tests use. The test command (`npm test`, infra/test.sh) starts a throwaway
 * server of each for the run, or takes DATABASE_URL / NATS_URL, and passes them on as TEST_DATABASE_URL /
 * TEST_NATS_URL. There is deliberately no default: a run that did not get them fails here, loudly, instead
 * of writing into whatever PostgreSQL or NATS the machine happens to run. Read on use, not on import, so
 * unit tests and the benchmarks (which pass their own URLs) can import this module without them.
 */
export const testDatabaseUrl = (): string => requiredUrl('TEST_DATABASE_URL');
export const testNatsUrl = (): string => requiredUrl('TEST_NATS_URL');

function requiredUrl(name: 'TEST_DATABASE_URL' | 'TEST_NATS_URL'): string {
  const url = process.env[name];
  if (!url)
    throw new Error(
      `${name} is not set. Run the tests with \`npm test\` (\`npm test -- <file>\` for one file): it starts ` +
        'a private PostgreSQL and NATS for the run and sets it (DATABASE_URL / NATS_URL choose existing ones).',
    );
  return url;
}

/** A schema name no other test file uses. */
export const uniqueSchema = (label = 't') => `${label}_${randomBytes(6).toString('hex')}`;

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: env.DATABASE_URL ?? testDatabaseUrl(),
    DATABASE_SCHEMA: uniqueSchema(),
    LOG_LEVEL: 'silent',
    // Every test registers its users from 127.0.0.1; the sign-up limit has a test of its own.
    REGISTER_LIMIT_PER_HOUR: '100000',
    ...env,
  });
}

export type TestCore = {
  core: Core;
  /** The PostgreSQL schema; `public` for an embedded core. */
  schema: string;
  /** The embedded core's DATA_DIR (a temporary folder `cleanup` removes); undefined on PostgreSQL. */
  dataDir?: string;
  cleanup: () => Promise<void>;
};

/** Which database a test core runs on: a fresh schema of the test PostgreSQL, or embedded PGlite. */
export type TestDatabase = 'postgres' | 'pglite';

export type TestCoreOptions = CoreOptions & {
  /**
   * `pglite`: the embedded default, as `npm start` opens it (a DATA_DIR of its own in a temporary folder,
   * the database copied from the template prepared at install, the in-process bus). Default `postgres`.
   */
  database?: TestDatabase;
};

/**
 * A Core on the real PostgreSQL, isolated in a fresh schema that `cleanup` drops. Pass the same
 * DATABASE_SCHEMA to a second createTestCore to get a second "process" on the same data. With
 * `database: 'pglite'`, a Core on embedded PGlite in a temporary DATA_DIR that `cleanup` removes (one
 * process per DATA_DIR: there is no joining it).
 */
export async function createTestCore(
  env: Record<string, string> = {},
  options: TestCoreOptions = {},
): Promise<TestCore> {
  const { database = 'postgres', ...coreOptions } = options;
  if (database === 'pglite') return createEmbeddedTestCore(env, coreOptions);
  const config = testConfig(env);
  if (config.database.kind !== 'postgres') throw new Error('test cores run on PostgreSQL');
  const schema = config.database.schema;
  const core = await createCore(config, coreOptions);
  return {
    core,
    schema,
    cleanup: async () => {
      await core.db.execute(`drop schema if exists "${schema}" cascade`);
      await core.close();
    },
  };
}

/**
 * Two "processes" on one fresh schema: `direct`, and `proxied`, whose database connections go through a
 * cuttable proxy (cut it for an outage of that process alone). `cleanup` restores and closes it all.
 */
export async function createProxiedTestCores(): Promise<{
  direct: TestCore;
  proxied: TestCore;
  proxy: TcpProxy;
  cleanup: () => Promise<void>;
}> {
  const direct = await createTestCore();
  const viaProxy = await proxyTestDatabase();
  const proxied = await createTestCore({ DATABASE_URL: viaProxy.url, DATABASE_SCHEMA: direct.schema });
  return {
    direct,
    proxied,
    proxy: viaProxy.proxy,
    cleanup: async () => {
      await viaProxy.proxy.restore().catch(() => {});
      await proxied.core.close();
      await viaProxy.proxy.close();
      await direct.cleanup();
    },
  };
}

async function createEmbeddedTestCore(env: Record<string, string>, options: CoreOptions): Promise<TestCore> {
  if (env.DATABASE_URL || env.DATABASE_SCHEMA || env.NATS_URL) {
    throw new Error('an embedded test core takes no DATABASE_URL, DATABASE_SCHEMA or NATS_URL');
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'verdict-test-'));
  try {
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      REGISTER_LIMIT_PER_HOUR: '100000',
      ...env,
      DATA_DIR: dataDir,
    });
    // The template the install prepared (postinstall), built here where that was skipped: every embedded
    // core then starts from a copy, as `npm start` does, instead of a 10–30 s build of its own.
    await prepareTemplate(config.pgliteTemplates);
    const core = await createCore(config, options);
    return {
      core,
      schema: 'public',
      dataDir,
      cleanup: async () => {
        await core.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** Polls `read` until `done` holds, for tests that wait on another process or a background loop. */
export async function eventually<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`not reached in ${ms} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Resolves with the debate row once its status is one of `statuses` (default: finished), within `ms`. */
export function debateReaching(
  core: Core,
  id: string,
  { statuses = ['completed', 'failed'], ms }: { statuses?: string[]; ms?: number } = {},
) {
  return eventually(
    () => readDebate(core, id),
    (debate) => debate !== null && statuses.includes(debate.status),
    ms,
  );
}
export { actingAs, asUser, auditEntriesOf, userEntry } from './audit.ts';
export { minimalDocx, minimalPdf, storedZip } from './documents.ts';
export {
  decodeStripeForm,
  type FakeStripe,
  type FakeStripeRequest,
  signStripePayload,
  startFakeStripe,
  stripeEvent,
} from './fake-stripe.ts';
export {
  type CraftedOidcIssuer,
  type CraftedOidcIssuerOptions,
  type IdTokenClaims,
  type IdTokenDefect,
  startCraftedOidcIssuer,
} from './identity-providers/crafted-oidc-issuer.ts';
export {
  type OidcClient,
  type OidcIssuer,
  type OidcIssuerOptions,
  type OidcUser,
  startOidcIssuer,
} from './identity-providers/oidc-issuer.ts';
export {
  type SamlIdp,
  type SamlIdpOptions,
  type SamlPost,
  type SamlResponseDefect,
  type SamlResponseOptions,
  type SamlUser,
  startSamlIdp,
} from './identity-providers/saml-idp.ts';
export {
  RECEIVER_HOST,
  type ReceivedDelivery,
  type ReceiverReply,
  receiverPolicy,
  startWebhookReceiver,
  type WebhookReceiver,
} from './webhook-receiver.ts';
export { insertTestWorkspace, placeDebateIn } from './workspaces.ts';
