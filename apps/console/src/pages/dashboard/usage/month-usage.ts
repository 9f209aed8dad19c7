import { data, rest, type Schemas } from '../../../lib/api.ts';

type Debate = Schemas['Debate'];
export type ModeUsage = { mode: string; debates: number; credits: number; tokens: number; llmCalls: number };
export type MonthUsage = {
  /** First instant of the current UTC month. */
  since: string;
  byMode: ModeUsage[];
  total: ModeUsage;
  byFunding: Record<Debate['fundingSource'], number>;
  /** More debates than were read: the figures are a lower bound. */
  truncated: boolean;
};

const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/**
 * This month's debates summed per mode. The API has no per-account monthly usage route for a session
 * (GET /v1/usage counts one API key's requests), so it is added up from the debate list, newest first,
 * reading until the month's first debate.
 */
export async function loadMonthUsage(signal: AbortSignal): Promise<MonthUsage> {
  const now = new Date();
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  const debates: Debate[] = [];
  let truncated = true;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await data(
      rest.GET('/api/debates', {
        params: { query: { page, limit: PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'desc' } },
        signal,
      }),
    );
    const thisMonth = answer.debates.filter((d) => d.createdAt >= since);
    debates.push(...thisMonth);
    if (thisMonth.length < answer.debates.length || page >= answer.totalPages) {
      truncated = false;
      break;
    }
  }
  return { since, truncated, ...summarize(debates) };
}

function summarize(debates: Debate[]) {
  const empty = (mode: string): ModeUsage => ({ mode, debates: 0, credits: 0, tokens: 0, llmCalls: 0 });
  const modes = new Map<string, ModeUsage>();
  const total = empty('All modes');
  const byFunding = { free_tier: 0, user_credits: 0, byok: 0 };
  for (const debate of debates) {
    const mode = debate.mode ?? 'other';
    const row = modes.get(mode) ?? empty(mode);
    for (const target of [row, total]) {
      target.debates += 1;
      target.credits += debate.cost?.credits ?? 0;
      target.tokens += (debate.cost?.inputTokens ?? 0) + (debate.cost?.outputTokens ?? 0);
      target.llmCalls += debate.cost?.llmCalls ?? 0;
    }
    modes.set(mode, row);
    byFunding[debate.fundingSource] += 1;
  }
  const order = ['fast', 'balanced', 'thorough', 'other'];
  const byMode = [...modes.values()].sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode));
  return { byMode, total, byFunding };
}
