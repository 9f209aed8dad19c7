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
  { label: 'debates_list_middle_page', path: (s) => `/api/debates${q({ page: s.middlePage })}` },
  { label: 'verdicts_list', path: () => '/v1/verdicts' },
  {
    label: 'workspace_debates',
    path: (s) => (s.ownsWorkspace ? `/api/workspaces/${s.workspace}/debates` : null),
  },
  { label: 'search_common', path: () => `/api/search${q({ q: 'lisbon' })}` },
  { label: 'search_common_relevance', path: () => `/api/search${q({ q: 'lisbon', sort: 'relevance' })}` },
  { label: 'search_rare', path: () => `/api/search${q({ q: 'ref 4240.' })}` },
  { label: 'search_suggestions', path: () => `/api/search/suggestions${q({ q: 'lis' })}` },
  { label: 'similar', path: () => `/api/similar${q({ q: 'Should we expand the Lisbon team?' })}` },
  { label: 'analytics', path: (s) => `/api/debates/${s.debate}/analytics` },
  { label: 'debate', path: (s) => `/api/debates/${s.debate}` },
  { label: 'usage', path: () => '/v1/usage' },
  { label: 'score', path: () => '/api/scores/me' },
  { label: 'score_trend', path: () => '/api/scores/me/trend' },
  { label: 'score_domains', path: () => '/api/scores/me/domains' },
  { label: 'score_calibration', path: () => '/api/scores/me/calibration' },
  { label: 'calibration_comparison', path: () => '/api/scores/calibration' },
  { label: 'streaks', path: () => '/api/streaks' },
  { label: 'outcomes_history', path: () => '/api/outcomes/history' },
  { label: 'outcomes_pending', path: () => '/api/outcomes/pending' },
  { label: 'recommendations', path: () => '/api/recommendations' },
];
