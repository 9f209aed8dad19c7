import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const DIR = join(import.meta.dirname, '..', '..', 'infra', 'observability');

type Panel = { title?: string; type?: string; targets?: { expr?: string }[]; panels?: Panel[] };

/** Every panel of the Grafana dashboard, rows' panels included. */
export function dashboardPanels(): Panel[] {
  const dashboard = JSON.parse(readFileSync(join(DIR, 'grafana-dashboard.json'), 'utf8')) as {
    panels: Panel[];
  };
  return dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
}

/** The PromQL of every target of every panel. */
export const dashboardExpressions = () =>
  dashboardPanels().flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));

export type AlertRule = {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
};

const RULE_KEYS = new Set(['alert', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations']);
const DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/;
const SEVERITIES = new Set(['page', 'warn', 'info']);

/**
 * The alert rules file, checked as `promtool check rules` checks its structure (promtool is not installed
 * here): groups with unique names, each with rules; each rule an `alert` with a unique name, an `expr`, a
 * duration `for`, string labels with a known `severity`, and a summary and description. Throws the list of
 * what is wrong.
 */
export function alertRules(text = readFileSync(join(DIR, 'alerts.yml'), 'utf8')): AlertRule[] {
  const problems: string[] = [];
  const doc = parse(text) as { groups?: unknown } | null;
  const groups = Array.isArray(doc?.groups) ? (doc.groups as { name?: unknown; rules?: unknown }[]) : [];
  if (groups.length === 0) problems.push('no groups');
  const groupNames = new Set<string>();
  const alertNames = new Set<string>();
  const rules: AlertRule[] = [];
  for (const group of groups) {
    if (typeof group.name !== 'string' || groupNames.has(group.name))
      problems.push(`group name ${group.name}`);
    groupNames.add(String(group.name));
    if (!Array.isArray(group.rules) || group.rules.length === 0) problems.push(`${group.name}: no rules`);
    for (const rule of (Array.isArray(group.rules) ? group.rules : []) as Record<string, unknown>[]) {
      const name = String(rule.alert);
      for (const key of Object.keys(rule))
        if (!RULE_KEYS.has(key)) problems.push(`${name}: unknown key ${key}`);
      if (typeof rule.alert !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(rule.alert)) {
        problems.push(`rule without a valid alert name: ${name}`);
      }
      if (alertNames.has(name)) problems.push(`${name}: named twice`);
      alertNames.add(name);
      if (typeof rule.expr !== 'string' || rule.expr.trim() === '') problems.push(`${name}: no expr`);
      else if (!balanced(rule.expr)) problems.push(`${name}: unbalanced brackets in expr`);
      if (rule.for !== undefined && !(typeof rule.for === 'string' && DURATION.test(rule.for))) {
        problems.push(`${name}: for is not a duration`);
      }
      const labels = (rule.labels ?? {}) as Record<string, unknown>;
      if (Object.values(labels).some((v) => typeof v !== 'string'))
        problems.push(`${name}: a label is not a string`);
      if (!SEVERITIES.has(String(labels.severity))) problems.push(`${name}: severity ${labels.severity}`);
      const annotations = (rule.annotations ?? {}) as Record<string, unknown>;
      if (typeof annotations.summary !== 'string' || typeof annotations.description !== 'string') {
        problems.push(`${name}: summary and description annotations required`);
      }
      rules.push(rule as unknown as AlertRule);
    }
  }
  if (problems.length > 0) throw new Error(`alerts.yml: ${problems.join('; ')}`);
  return rules;
}

/** Whether (), [] and {} pair up, outside quoted strings. */
function balanced(expr: string): boolean {
  const stack: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  let quote: string | null = null;
  for (const c of expr) {
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) stack.push(c);
    else if (c in pairs && stack.pop() !== pairs[c]) return false;
  }
  return stack.length === 0 && quote === null;
}

/** The `verdict_*` metric names an expression names. */
export const verdictNamesIn = (exprs: string[]) =>
  new Set(exprs.flatMap((e) => e.match(/\bverdict_[a-z0-9_]+/g) ?? []));

/** Metric families of a Prometheus text exposition, by name, with their type. */
export const familiesOf = (text: string) =>
  new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1] as string, m[2] as string] as const));

/**
 * The names among `names` that no family of `families` exposes: a family's own name, or a histogram's or
 * summary's `_bucket`, `_count` and `_sum` series.
 */
export function unexposed(names: Iterable<string>, families: Map<string, string>): string[] {
  return [...names]
    .filter((name) => {
      if (families.has(name)) return false;
      const series = name.match(/^(.*)_(bucket|count|sum)$/);
      const type = series ? families.get(series[1] as string) : undefined;
      return !(type === 'histogram' || (type === 'summary' && series?.[2] !== 'bucket'));
    })
    .sort();
}
