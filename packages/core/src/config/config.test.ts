import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to embedded PGlite in ./.data and the in-process bus', () => {
    const config = loadConfig({});
    expect(config.database.kind).toBe('pglite');
    expect(config.database.kind === 'pglite' && config.database.dataDir).toMatch(/\/\.data$/);
    expect(config.nats).toEqual({ kind: 'memory' });
    expect(config.port).toBe(3000);
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
    expect(config.secureCookies).toBe(false);
  });

  it('keeps audit entries as the plan table says, or as AUDIT_RETENTION_DAYS sets, never under 30 days', () => {
    expect(loadConfig({}).audit.retentionDays).toMatchObject({ free: 30, pro: 90, enterprise: 365 });
    const set = loadConfig({ AUDIT_RETENTION_DAYS: 'pro=120, enterprise=730' }).audit.retentionDays;
    expect(set).toMatchObject({ free: 30, pro: 120, enterprise: 730 });
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: 'pro=7' })).toThrow(
      /AUDIT_RETENTION_DAYS: pro=7: at least 30 days/,
    );
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: 'gold=90' })).toThrow(/"gold" is no plan/);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: 'pro' })).toThrow(ConfigError);
  });

  it('keeps debate events forever unless DEBATE_EVENTS_RETENTION_DAYS says how many days, at least one', () => {
    expect(loadConfig({}).debateEvents).toEqual({ retentionDays: null });
    expect(loadConfig({ DEBATE_EVENTS_RETENTION_DAYS: '90' }).debateEvents).toEqual({ retentionDays: 90 });
    expect(() => loadConfig({ DEBATE_EVENTS_RETENTION_DAYS: '0' })).toThrow(/DEBATE_EVENTS_RETENTION_DAYS/);
  });

  it('switches to PostgreSQL and NATS when their URLs are set', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/verdict',
      NATS_URL: 'nats://a:4222, nats://b:4222',
      PUBLIC_BASE_URL: 'https://api.example.com/',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db:5432/verdict',
      schema: 'public',
    });
    expect(config.nats).toEqual({
      kind: 'nats',
      servers: ['nats://a:4222', 'nats://b:4222'],
      streamReplicas: undefined,
    });
    expect(config.publicBaseUrl).toBe('https://api.example.com');
    expect(config.appUrl).toBe('https://api.example.com');
    expect(config.secureCookies).toBe(true);
  });

  it('takes the copies of each NATS stream, 1 to 5', () => {
    const nats = (replicas: string) =>
      loadConfig({ NATS_URL: 'nats://a:4222', NATS_STREAM_REPLICAS: replicas }).nats;
    expect(nats('3')).toEqual({ kind: 'nats', servers: ['nats://a:4222'], streamReplicas: 3 });
    expect(() => nats('0')).toThrow(/NATS_STREAM_REPLICAS/);
    expect(() => nats('6')).toThrow(/NATS_STREAM_REPLICAS/);
  });

  it('lets links follow the request only where their address is not configured', () => {
    expect(loadConfig({}).linksFollowRequest).toEqual({ api: true, app: true });
    expect(loadConfig({ APP_URL: 'https://app.example.com' }).linksFollowRequest).toEqual({
      api: true,
      app: false,
    });
    // APP_URL defaults to PUBLIC_BASE_URL: the web app's links follow it too.
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com' }).linksFollowRequest).toEqual({
      api: false,
      app: false,
    });
  });

  it('fails at start with one readable line per bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT:');
    expect(message).toContain('DATABASE_URL: must be a postgres:// URL');
    expect(message).toContain('LOG_LEVEL:');
  });

  it('reads the read replica only beside DATABASE_URL: an embedded database has none', () => {
    expect(loadConfig({}).readReplica).toBeNull();
    expect(
      loadConfig({ DATABASE_URL: 'postgres://p/db', DATABASE_REPLICA_URL: 'postgres://r/db' }).readReplica,
    ).toEqual({ url: 'postgres://r/db', maxLagMs: 5_000 });
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://r/db' })).toThrow(
      /DATABASE_REPLICA_URL: needs DATABASE_URL/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://p/db', DATABASE_REPLICA_URL: 'mysql://r' })).toThrow(
      /DATABASE_REPLICA_URL: must be a postgres/,
    );
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/y', DATABASE_SCHEMA: 'a;drop' })).toThrow(
      ConfigError,
    );
  });

  it('stores no SSO client secret without SSO_SECRET_KEY (32+ characters), and keeps issuers public unless told', () => {
    expect(loadConfig({}).sso).toEqual({ secretKey: null, allowHttp: false, allowPrivate: false });
    expect(() => loadConfig({ SSO_SECRET_KEY: 'short' })).toThrow(/SSO_SECRET_KEY/);
    const key = 'k'.repeat(32);
    expect(loadConfig({ SSO_SECRET_KEY: key, SSO_ALLOW_HTTP: 'true', SSO_ALLOW_PRIVATE: 'yes' }).sso).toEqual(
      {
        secretKey: key,
        allowHttp: true,
        allowPrivate: true,
      },
    );
  });

  it('sends no email without SMTP_URL, and needs EMAIL_LINK_SECRET (32+ characters) with it', () => {
    expect(loadConfig({}).email).toEqual({
      smtpUrl: null,
      from: 'Verdict <notifications@localhost>',
      linkSecret: null,
    });
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example:25' })).toThrow(/EMAIL_LINK_SECRET: required/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example:25', EMAIL_LINK_SECRET: 'short' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/smtp:\/\/ or smtps:\/\//);
    const secret = 's'.repeat(32);
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example:465', EMAIL_LINK_SECRET: secret }).email).toEqual(
      {
        smtpUrl: 'smtps://u:p@mail.example:465',
        from: 'Verdict <notifications@localhost>',
        linkSecret: secret,
      },
    );
  });

  it('limits public link reads to the spec 30 per minute per IP unless configured', () => {
    expect(loadConfig({}).rateLimits.publicReadsPerMinute).toBe(30);
    expect(loadConfig({ PUBLIC_READS_PER_MINUTE: '500' }).rateLimits.publicReadsPerMinute).toBe(500);
  });

  it('trusts no proxy by default; TRUST_PROXY names hops, addresses or CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(ConfigError);
    // Yes/no in any usual spelling; a number stays a hop count.
    expect(loadConfig({ TRUST_PROXY: 'Yes' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
  });

  it('reads a yes/no setting as true/false, 1/0, yes/no or on/off in any case, and refuses anything else', () => {
    expect(loadConfig({}).webhooks).toMatchObject({ allowHttp: false, allowPrivate: false });
    for (const yes of ['true', '1', 'yes', 'on', 'TRUE', ' Yes '])
      expect(loadConfig({ WEBHOOK_ALLOW_HTTP: yes }).webhooks.allowHttp, yes).toBe(true);
    for (const no of ['false', '0', 'no', 'off', 'False'])
      expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: no }).webhooks.allowPrivate, no).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_HTTP: 'maybe' })).toThrow(
      /WEBHOOK_ALLOW_HTTP.*true\/false, 1\/0, yes\/no or on\/off/,
    );
  });

  it('leaves billing unconfigured without STRIPE_*, and splits STRIPE_API_URL as the SDK takes it', () => {
    expect(loadConfig({}).billing).toEqual({
      secretKey: null,
      webhookSecret: null,
      api: null,
      prices: { byok: null, byok_pro: null, credits_100: null, credits_500: null, credits_2000: null },
    });
    const billing = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      STRIPE_PRICE_BYOK_PRO: 'price_pro',
    }).billing;
    expect(billing).toMatchObject({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      api: { protocol: 'http', host: '127.0.0.1', port: 12111 },
      prices: { byok: null, byok_pro: 'price_pro' },
    });
    expect(loadConfig({ STRIPE_API_URL: 'https://stripe.internal' }).billing.api).toEqual({
      protocol: 'https',
      host: 'stripe.internal',
      port: 443,
    });
    expect(() => loadConfig({ STRIPE_API_URL: 'stripe' })).toThrow(ConfigError);
  });

  it('takes a model per provider and tier from <PROVIDER>_MODEL_<TIER>, and nothing else from the table', () => {
    expect(loadConfig({}).providers.models).toEqual({});
    const { models } = loadConfig({
      OPENAI_API_KEY: 'sk-x',
      OPENAI_BASE_URL: 'https://gateway.example/v1',
      OPENAI_MODEL_SONNET: 'gpt-4.1',
      OPENAI_MODEL_HAIKU: 'gpt-4.1-mini',
      OLLAMA_MODEL_LOCAL: 'qwen3:14b',
    }).providers;
    expect(models).toEqual({
      openai: { sonnet: 'gpt-4.1', haiku: 'gpt-4.1-mini' },
      ollama: { local: 'qwen3:14b' },
    });
  });

  it('refuses model overrides it cannot honour, one line each', () => {
    let error: unknown;
    try {
      loadConfig({
        OPENAI_MODEL_SONET: 'gpt-4.1',
        ANTHROPIC_MODEL_LOCAL: 'claude-local',
        GOOGLE_MODEL_OPUS: 'gemini pro',
        OPENROUTER_MODEL_HAIKU: '',
        PORT: 'eighty',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const lines = (error as Error).message.split('\n').slice(1);
    expect(lines).toHaveLength(5);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}PORT: /),
        '  OPENAI_MODEL_SONET: no tier "sonet" (tiers: opus, sonnet, haiku, local)',
        '  ANTHROPIC_MODEL_LOCAL: only ollama serves the local tier (a cloud API is never local)',
        '  GOOGLE_MODEL_OPUS: a model id without spaces or commas',
        '  OPENROUTER_MODEL_HAIKU: a model id without spaces or commas',
      ]),
    );
  });

  it('embeds nothing unless EMBEDDINGS says so, and refuses a provider it could not reach', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x' }).providers.embeddings).toBe('off');
    expect(loadConfig({ EMBEDDINGS: 'auto' }).providers.embeddings).toBe('auto');
    expect(loadConfig({ GOOGLE_API_KEY: 'g', EMBEDDINGS: 'google' }).providers.embeddings).toBe('google');
    expect(
      loadConfig({ OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1', EMBEDDINGS: 'ollama' }).providers.embeddings,
    ).toBe('ollama');
    expect(() => loadConfig({ EMBEDDINGS: 'openai' })).toThrow(
      'EMBEDDINGS: openai embeds only with OPENAI_API_KEY set',
    );
    expect(() => loadConfig({ EMBEDDINGS: 'ollama' })).toThrow(
      'EMBEDDINGS: ollama embeds only with OLLAMA_BASE_URL set',
    );
    expect(() => loadConfig({ ANTHROPIC_API_KEY: 'a', EMBEDDINGS: 'anthropic' })).toThrow(
      /EMBEDDINGS: .*off, auto, openai, google, ollama/,
    );
  });
});
