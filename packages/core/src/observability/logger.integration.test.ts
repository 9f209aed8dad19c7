import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../accounts/user.entity.ts';
import { createTestCore, type TestCore } from '../testing/index.ts';
import { createLogger } from './logger.ts';

const EMAIL = 'ada.lovelace@example.com';
const HASH = 'scrypt$32768$8$1$c2VjcmV0LXNhbHQ$c2VjcmV0LWhhc2g';

/** A logger whose JSON lines the test reads back. */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level: 'info', pretty: false, destination }), text: () => lines.join('') };
}

/** The error a second insert of the same account raises, through the ORM or as raw SQL. */
async function duplicateInsert(test: TestCore, via: 'orm' | 'sql'): Promise<unknown> {
  const insert = async () => {
    if (via === 'sql') {
      await test.core.db.execute('insert into users (email, name, password_hash) values (?, ?, ?)', [
        EMAIL,
        'Ada',
        HASH,
      ]);
      return;
    }
    const em = test.core.db.em();
    em.create(User, {
      id: randomUUID(),
      email: EMAIL,
      name: 'Ada',
      passwordHash: HASH,
      plan: 'free',
      creditBalance: 0,
      rateLimitPerMinute: null,
      createdAt: new Date(),
    });
    await em.flush();
  };
  await insert().catch(() => {}); // the first may meet the row of the other case
  return insert().then(
    () => {
      throw new Error('the duplicate insert succeeded');
    },
    (err: unknown) => err,
  );
}

describe('log lines of database failures', () => {
  let test: TestCore;
  beforeAll(async () => {
    test = await createTestCore();
  });
  afterAll(async () => {
    await test.cleanup();
  });

  it.each(['orm', 'sql'] as const)(
    'never carry the values of a failed insert (%s), only what identifies the failure',
    async (via) => {
      const error = await duplicateInsert(test, via);
      // The raw error does quote the email: this is what the serializer must keep out of the log.
      expect(
        JSON.stringify({ message: (error as Error).message, detail: (error as { detail?: string }).detail }),
      ).toContain(EMAIL);
      const { logger, text } = capturingLogger();
      logger.error({ err: new Error('procedure failed', { cause: error }) }, 'unhandled error');
      const line = JSON.parse(text()) as { err: { message: string; cause: Record<string, unknown> } };
      expect(text()).not.toContain(EMAIL);
      expect(text()).not.toContain('c2VjcmV0');
      expect(line.err.message).toBe('procedure failed');
      expect(line.err.cause).toMatchObject({
        code: '23505',
        table: 'users',
        constraint: 'users_email_unique',
        message: 'database error 23505 (values withheld)',
      });
      expect(String(line.err.cause.stack)).toMatch(/^\s+at /);
    },
  );
});
