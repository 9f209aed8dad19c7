import { DomainAccuracy } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const getDomains = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/scores/me/domains',
      summary: 'Brier score, sample size and trend per domain',
      description:
        "trend compares the domain's newer half of resolved outcomes with its older half: improving when the " +
        "newer half's Brier score is lower by more than 0.05, declining when higher by more, else stable " +
        '(always stable under 4 outcomes).',
    },
  })
  .input(z.void())
  .output(z.array(DomainAccuracy))
  .query(({ ctx }) => ctx.services.scores.domains(ctx.caller.userId));
