import { Attachment, FetchUrlInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const fetchUrl = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR:
        'The page cannot be used: refused by the address rules (private, loopback, metadata; a redirect to ' +
        'one), more than 5 redirects, over 5 MB, no answer within 10 s (name lookups included), an error status, a type other than ' +
        'HTML, PDF or text, or text that could not be read (the reason says why); or the debate has 5 ' +
        'attachments already',
      BYOK_REQUIRED: 'Attachments need the BYOK Pro plan (or Enterprise); requiredPlan names it',
      NOT_FOUND: 'No such debate, or it belongs to another user',
      SERVICE_UNAVAILABLE:
        'Too many pages being read at once on this server; retry after Retry-After seconds',
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/debates/fetch-url',
      summary: 'Attach a web page to a debate',
      description:
        'The server fetches the page (http or https; redirects followed and re-checked, at most 5; 5 MB; ' +
        '10 s for the whole download, name lookups included), ' +
        'extracts its readable text (HTML through Readability, PDF like an uploaded PDF) and stores it as a ' +
        'ready URL attachment; its download answers {url}. Never reaches private, loopback or metadata ' +
        'addresses. The debate owner only, on BYOK Pro.',
    },
  })
  .input(FetchUrlInput)
  .output(Attachment)
  .mutation(({ ctx, input }) => ctx.services.attachments.fetchUrl(ctx.caller.userId, input));
