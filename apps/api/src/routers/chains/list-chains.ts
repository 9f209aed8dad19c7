import { CHAINS_PER_USER_MAX, ChainList } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const listChains = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/chains',
      summary: "The caller's decision chains, newest first",
      description:
        `Without their debates: GET /api/chains/{id} reads one with its debates. Not paginated: a user ` +
        `owns at most ${CHAINS_PER_USER_MAX} chains.`,
    },
  })
  .input(z.void())
  .output(ChainList)
  .query(({ ctx }) => ctx.services.chains.list(ctx.caller.userId));
