import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestCore, TEST_DATABASE_URL, type TestCore } from '../testing/index.ts';
import { entities } from './entities.ts';

describe('migrations', () => {
  const cores: TestCore[] = [];
  afterAll(async () => {
    for (const c of cores) await c.cleanup();
  });

  it('leave nothing for the schema generator to change: entities and committed SQL agree', async () => {
    const test = await createTestCore();
    cores.push(test);
    const orm = await MikroORM.init({
      entities,
      clientUrl: TEST_DATABASE_URL,
      schema: test.schema,
      driverOptions: { options: `-c search_path=${test.schema}` },
      discovery: { warnWhenNoEntities: false },
    });
    try {
      const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: true });
      // rate_limit_counters is deliberately not an entity; with safe: true no drop is proposed for it.
      expect(diff.trim()).toBe('');
    } finally {
      await orm.close(true);
    }
  });

  it('are applied once: reopening the same schema runs nothing new', async () => {
    const first = await createTestCore();
    cores.push(first);
    const again = await createTestCore({ DATABASE_SCHEMA: first.schema });
    const rows = await again.core.db.execute<{ n: number }>(
      'select count(*)::int as n from mikro_orm_migrations',
    );
    await again.core.close();
    expect(rows[0]?.n).toBe(1);
  });
});
