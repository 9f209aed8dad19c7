/**
 * The reads whose cost grows with an account's history, as the history suite requests them: each a route
 * of the real API with its query, for one account. `debate` is a recent completed debate of the account,
 * `middlePage` the page of its debate list halfway through (offset paging reads every row before it).
 */
export type ReadSubject = {
  workspace: string;
  debate: string;
  middlePage: number;
  /** Only the heavy account's reads of its workspace are measured (the typical account is a member). */
  ownsWorkspace: boolean;
};

export type HistoryRead = {
  label: string;
  path: (s: ReadSubject) => string | null;
  /** What binds the read's time at this size, printed when its target is not met (the plans: docs/plans/history.md). */
  boundBy?: string;
};

const q = (params: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;

export const HISTORY_READS: HistoryRead[] = [
  { label: 'debates_list', path: () => '/api/debates' },
  {
    label: 'debates_list_completed',
    path: () => `/api/debates${q({ status: 'completed', sortBy: 'completedAt' })}`,
  },
  {
    label: 'debates_list_middle_page',
    boundBy: "the ids walked past the offset (49,000 index entries for heavy's middle page) and the count",
    path: (s) => `/api/debates${q({ page: s.middlePage })}`,
  },
  { label: 'verdicts_list', path: () => '/v1/verdicts' },
  {
    label: 'workspace_debates',
    path: (s) => (s.ownsWorkspace ? `/api/workspaces/${s.workspace}/debates` : null),
  },
  {
    label: 'search_common',
    boundBy:
      "the total: every match of the owner counted (14,000 for heavy), from trigram and full-text bitmaps over every account's 142,857 matches",
    path: () => `/api/search${q({ q: 'lisbon' })}`,
  },
  {
    label: 'search_common_relevance',
    boundBy: 'ts_rank over every match of the owner (14,000 for heavy) before the first page, and the count',
    path: () => `/api/search${q({ q: 'lisbon', sort: 'relevance' })}`,
  },
  {
    label: 'search_rare',
    boundBy:
      "search's semantic part, on the last page of keyword results: an exact scan of the owner's real[] embeddings, cut at its 2 s budget",
    path: () => `/api/search${q({ q: 'ref 4240.' })}`,
  },
  {
    label: 'search_suggestions',
    boundBy: 'a prefix that starts most of the history groups all of those questions',
    path: () => `/api/search/suggestions${q({ q: 'lis' })}`,
  },
  {
    label: 'similar',
    boundBy:
      "an exact scan of the owner's embeddings, real[] on this PostgreSQL (no pgvector): ~0.3–2 ms each; 94,000 pass the driver's 30 s query timeout",
    path: () => `/api/similar${q({ q: 'Should we expand the Lisbon team?' })}`,
  },
  {
    label: 'analytics',
    boundBy:
      "the owner's averages over every completed debate at each request (an index-only scan of debates_owner_completed_index, 94,000 entries with their cost JSON)",
    path: (s) => `/api/debates/${s.debate}/analytics`,
  },
  { label: 'debate', path: (s) => `/api/debates/${s.debate}` },
  { label: 'usage', path: () => '/v1/usage' },
  { label: 'score', path: () => '/api/scores/me' },
  { label: 'score_trend', path: () => '/api/scores/me/trend' },
  { label: 'score_domains', path: () => '/api/scores/me/domains' },
  { label: 'score_calibration', path: () => '/api/scores/me/calibration' },
  {
    label: 'calibration_comparison',
    boundBy: 'every resolved outcome read to fit the curves at each request (18,800 for heavy)',
    path: () => '/api/scores/calibration',
  },
  { label: 'streaks', path: () => '/api/streaks' },
  { label: 'outcomes_history', path: () => '/api/outcomes/history' },
  {
    label: 'outcomes_pending',
    boundBy: 'every pending outcome returned, unpaged (3,678 for heavy)',
    path: () => '/api/outcomes/pending',
  },
  { label: 'recommendations', path: () => '/api/recommendations' },
];
