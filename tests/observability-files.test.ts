import { describe, expect, it } from 'vitest';
import {
  alertRules,
  dashboardExpressions,
  dashboardPanels,
  familiesOf,
  unexposed,
  verdictNamesIn,
} from './support/observability-files.ts';

// The dashboard and the rules against the processes' real scrapes: tests/metrics-e2e.test.ts.
describe('the dashboard and alert rules files', () => {
  it('has alert rules in Prometheus rule-file form: named groups of uniquely named alerts, each with an expression, a duration, a severity and a summary', () => {
    const rules = alertRules();
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'VerdictDebatesFailing',
        'VerdictNoEngineNode',
        'VerdictProviderErrorRateHigh',
        'VerdictWebhookDeliveryLagHigh',
        'VerdictOutboxLagHigh',
        'VerdictEventLoopLagHigh',
      ]),
    );
    const noEngine = rules.find((r) => r.alert === 'VerdictNoEngineNode');
    expect(noEngine?.expr).toContain('verdict_engine_slots');
    expect(noEngine?.expr).toContain('up{job="verdict-engine"}');
  });

  it('refuses a rules file with a rule missing its expression, a bad duration or an unknown key', () => {
    const broken = `groups:
  - name: g
    rules:
      - alert: A
        for: 5 minutes
        labels: { severity: page }
        annotations: { summary: s, description: d }
      - alert: B
        expr: up == 0
        expresion: typo
        labels: { severity: page }
        annotations: { summary: s, description: d }
`;
    expect(() => alertRules(broken)).toThrow(
      /A: no expr; A: for is not a duration; B: unknown key expresion/,
    );
  });

  it('has a dashboard whose every panel but the rows queries Prometheus', () => {
    const panels = dashboardPanels().filter((p) => p.type !== 'row');
    expect(panels.length).toBeGreaterThan(20);
    for (const panel of panels) expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    expect(dashboardExpressions().every((e) => e.trim().length > 0)).toBe(true);
  });

  it('finds the names a file uses that no family exposes, histogram series included', () => {
    const families = familiesOf(
      ['# TYPE verdict_a_total counter', '# TYPE verdict_wait_seconds histogram', 'verdict_a_total 1'].join(
        '\n',
      ),
    );
    const names = verdictNamesIn([
      'rate(verdict_a_total[5m])',
      'histogram_quantile(0.5, rate(verdict_wait_seconds_bucket[5m]))',
      'verdict_a_total_count + verdict_gone_total',
    ]);
    expect(unexposed(names, families)).toEqual(['verdict_a_total_count', 'verdict_gone_total']);
  });
});
