import { Health } from '@verdict/contracts';
import { z } from 'zod';
import { publicProcedure } from '../../trpc/init.ts';

/** Liveness of the public API process; deliberately touches nothing else. */
export const v1Health = publicProcedure
  .meta({
    openapi: { method: 'GET', path: '/v1/health', summary: 'The public API process answers' },
  })
  .input(z.void())
  .output(Health)
  .query(() => ({ status: 'ok' as const }));
