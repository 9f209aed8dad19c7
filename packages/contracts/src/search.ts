import { z } from 'zod';
import { DebateMode, DebateStatus, Recommendation } from './debates.ts';
import { hasVisibleCharacter } from './text.ts';

export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 10;
/** How many of a user's searches are kept for suggestions; older ones are dropped as new ones arrive. */
export const SEARCH_HISTORY_KEPT = 50;
export const SUGGESTIONS_MAX = 10;

/**
 * Query text of 1–200 characters that shows something, trimmed after the length check: the server
 * accepts no text the document's bounds refuse (a 201-character q with a trailing space is too long).
 */
const searchText = z
  .string()
  .min(1)
  .max(SEARCH_QUERY_MAX)
  .refine(hasVisibleCharacter, { message: 'Must contain visible characters' })
  .transform((text) => text.trim());

/** A comma-separated list of an enum's values (`completed,failed`), read as the distinct values. */
function commaList<T extends string>(values: readonly T[], description: string) {
  const item = values.join('|');
  return z
    .string()
    .regex(new RegExp(`^(${item})(,(${item}))*$`), {
      message: `Comma-separated values of: ${values.join(', ')}`,
    })
    .transform((text) => [...new Set(text.split(','))] as T[])
    .meta({ description });
}

/** A date (`2026-01-31`, a whole UTC day) or a datetime with its offset (`2026-01-31T12:00:00Z`). */
const dateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** `true` or `false` as a query string writes them; anything else is refused, never read as true. */
const queryBoolean = z.enum(['true', 'false']).transform((text) => text === 'true');

/**
 * GET /api/search. Filters combine with AND. dateFrom is inclusive from its instant (a date: that day's
 * start, UTC); dateTo is inclusive to the end of its UTC day, whether given as a date or a datetime.
 */
export const SearchQuery = z
  .object({
    q: searchText.meta({ description: 'Text to find in the question or context (1–200 characters)' }),
    type: z
      .enum(['debates', 'verdicts'])
      .default('debates')
      .meta({ description: 'verdicts: only completed debates with a verdict' }),
    sort: z
      .enum(['date', 'relevance', 'popularity'])
      .default('date')
      .meta({
        description:
          'date: newest first; relevance: full-text rank, keyword-only matches after the ranked ones; ' +
          'popularity: most viewed first',
      }),
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT),
    status: commaList(DebateStatus.options, 'Comma-separated statuses, e.g. `completed,failed`').optional(),
    mode: commaList(DebateMode.options, 'Comma-separated modes, e.g. `fast,thorough`').optional(),
    dateFrom: dateOrDateTime
      .optional()
      .meta({ description: 'Created at or after: a date (from the start of that UTC day) or a datetime' }),
    dateTo: dateOrDateTime.optional().meta({
      description:
        'Created on or before the end of this UTC day: `2026-01-31` and `2026-01-31T08:00:00Z` both mean ' +
        'through 2026-01-31T23:59:59.999Z',
    }),
    minConfidence: z.coerce
      .number()
      .min(0)
      .max(100)
      .optional()
      .meta({ description: 'Verdict confidence in percent, 0–100: 70 keeps confidence >= 0.70' }),
    hasVerdict: queryBoolean.optional().meta({ description: '`true` or `false`' }),
  })
  .superRefine((query, ctx) => {
    if (query.dateFrom && query.dateTo && dateFromInstant(query.dateFrom) > dateToEndOfDay(query.dateTo)) {
      ctx.addIssue({ code: 'custom', path: ['dateFrom'], message: 'dateFrom is after dateTo' });
    }
  });
export type SearchQuery = z.infer<typeof SearchQuery>;

/** The instant a dateFrom names: a date is the start of that UTC day. */
export const dateFromInstant = (dateOrDateTime: string): Date => new Date(dateOrDateTime);

/** The last millisecond of the UTC day a dateTo names, date or datetime: 2026-01-31T23:59:59.999Z. */
export function dateToEndOfDay(dateOrDateTime: string): Date {
  const day = new Date(dateOrDateTime);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1) - 1);
}

export const SearchResult = z
  .object({
    id: z.uuid(),
    question: z.string(),
    status: DebateStatus,
    mode: DebateMode.nullable(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
    recommendation: Recommendation.nullable(),
    oneLiner: z.string().nullable(),
    confidence: z.number().min(0).max(1).nullable().meta({ description: 'Verdict confidence, 0–1' }),
    relevanceScore: z.number().min(0).max(1).nullable().meta({
      description: 'Full-text rank scaled to 0–1; null for keyword-only and semantic-only matches',
    }),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchResults = z
  .object({
    results: z.array(SearchResult),
    total: z
      .number()
      .int()
      .meta({ description: 'Keyword and full-text matches (semantic hits not counted)' }),
    totalPages: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  })
  .meta({ id: 'SearchResults' });
export type SearchResults = z.infer<typeof SearchResults>;

/** GET /api/search/suggestions: without q (or with a blank one), the caller's recent searches. */
export const SuggestionsQuery = z.object({
  q: z
    .string()
    .max(SEARCH_QUERY_MAX)
    .optional()
    .meta({ description: 'The start of a query; omitted: recent searches' }),
});

export const Suggestion = z
  .object({
    text: z.string(),
    source: z.enum(['history', 'debate']).meta({
      description: 'history: an earlier search of yours; debate: the question of one of your debates',
    }),
  })
  .meta({ id: 'Suggestion' });
export type Suggestion = z.infer<typeof Suggestion>;

export const Suggestions = z.object({ suggestions: z.array(Suggestion) }).meta({ id: 'Suggestions' });
export type Suggestions = z.infer<typeof Suggestions>;
