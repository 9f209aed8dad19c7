import type { EntityManager } from '@mikro-orm/core';

/** Raw SQL inside the transaction an EntityManager is running (`em.transactional`), `?` placeholders. */
export function sqlIn(em: EntityManager) {
  return <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    em.getConnection().execute(sql, params, 'all', em.getTransactionContext()) as Promise<T[]>;
}

export type SqlRunner = ReturnType<typeof sqlIn>;
