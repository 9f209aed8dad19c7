import { chainOf, query, recordAudit, systemClock } from '@verdict/core';
import { createTestCore, type TestCore, uniqueEmail } from '@verdict/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from './commands.ts';

describe.each(['postgres', 'pglite'] as const)('npm run admin -- audit-verify (%s)', (database) => {
  let test: TestCore;
  beforeAll(async () => {
    test = await createTestCore({}, { database });
  });
  afterAll(() => test.cleanup());

  /** An account with `n` entries in its own chain. */
  async function accountWithEntries(n: number) {
    const email = uniqueEmail('audited');
    const user = await test.core.accounts.createUser({ email, name: 'Audited' });
    for (let i = 0; i < n; i++) {
      await test.core.db.em().transactional((em) =>
        recordAudit(em, systemClock, {
          owner: { accountId: user.id },
          action: 'api_key.update',
          target: { type: 'api_key', id: String(i) },
        }),
      );
    }
    return { email, chain: chainOf({ accountId: user.id }) };
  }

  it('prints what held, for one account and for every chain', async () => {
    const { email, chain } = await accountWithEntries(3);
    const own = await runAdminCommand(test.core, ['audit-verify', '--email', email]);
    expect(own).toEqual([expect.stringMatching(new RegExp(`^${chain}: \\d+ entries verified$`))]);
    const all = await runAdminCommand(test.core, ['audit-verify', '--all']);
    expect(all).toContain(own[0]);
    expect(all.at(-1)).toMatch(/^\d+ chains, 0 broken$/);
  });

  it('fails naming the first entry altered behind the database’s back', async () => {
    const { email, chain } = await accountWithEntries(4);
    await test.core.db.em().transactional(async (em) => {
      await sql`set local session_replication_role = replica`.execute(query(em));
      await sql`update audit_entries set target_id = 'forged' where chain = ${chain} and seq = 3`.execute(
        query(em),
      );
    });
    await expect(runAdminCommand(test.core, ['audit-verify', '--email', email])).rejects.toThrow(
      new RegExp(`${chain}: broken at entry 3: altered`),
    );
    await expect(runAdminCommand(test.core, ['audit-verify', '--all'])).rejects.toThrow(
      /chains, [1-9]\d* broken/,
    );
  });

  it('says what it needs when given no trail', async () => {
    await expect(runAdminCommand(test.core, ['audit-verify'])).rejects.toThrow(
      /--email <email>, --workspace <id> or --all/,
    );
  });
});
