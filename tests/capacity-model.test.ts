import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { costsFrom, INPUT_KEYS } from '../bench/lib/capacity-costs.ts';
import { answer } from '../bench/lib/capacity-model.ts';
import { CHECK_TOLERANCE, checkRows, generatedPart, renderTables } from '../bench/lib/capacity-report.ts';
import type { BenchResult } from '../bench/lib/results.ts';

/**
 * docs/capacity.md against the bench run it was made from (docs/capacity-inputs.json, a snapshot of the
 * rows the model reads; BENCHMARKS.md "The capacity model" says how to refresh both). No bench runs here.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const inputs = JSON.parse(readFileSync(`${ROOT}docs/capacity-inputs.json`, 'utf8')) as BenchResult[];
const doc = readFileSync(`${ROOT}docs/capacity.md`, 'utf8');

describe('the capacity model', () => {
  it('finds every row it reads in the snapshot, and nothing else is kept there', () => {
    expect(inputs.map((r) => r.name).sort()).toEqual([...INPUT_KEYS].sort());
  });

  it('computes finite, positive answers from the snapshot', () => {
    const a = answer(costsFrom(inputs));
    for (const figure of [a.api.cores, a.edges.cores, a.engine.cores, a.postgres.cores, a.nats.cores]) {
      expect(Number.isFinite(figure) && figure > 0).toBe(true);
    }
    expect(a.rates.lifeS).toBe(10); // 10,000 in flight at 1,000 creates a second
    expect(a.api.processes).toBeGreaterThanOrEqual(1);
    expect(a.postgres.connections).toBe(10 * (a.api.processes + a.edges.processes + a.engine.nodes));
  });

  it("keeps docs/capacity.md's tables those of the snapshot (npm run capacity -- docs/capacity-inputs.json --write docs/capacity.md)", () => {
    expect(generatedPart(doc)).toBe(renderTables(inputs));
  });

  it('predicts creates a second at one and at two API processes within 25 % of what the bench measured', () => {
    const checks = checkRows(inputs);
    expect(checks.map((k) => k.apiProcesses)).toEqual([1, 2]);
    for (const k of checks) expect(Math.abs(k.error)).toBeLessThanOrEqual(CHECK_TOLERANCE);
  });

  it('refuses a run that lacks a row it needs, naming it', () => {
    const without = inputs.filter((r) => r.name !== 'engine.node.node_cpu_ms_per_debate');
    expect(() => costsFrom(without)).toThrow(/engine\.node\.node_cpu_ms_per_debate/);
  });
});
