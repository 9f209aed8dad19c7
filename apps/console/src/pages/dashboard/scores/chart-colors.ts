/** Chart colours (a canvas cannot read CSS variables); each keeps 3:1 contrast on white. */
export const CHART_COLORS = {
  primary: '#1d4ed8',
  secondary: '#b45309',
  reference: '#4b5563',
} as const;
