import type { AnyStateMachine } from 'xstate';
import { debateMachine } from './machine.ts';

export type ChartTransition = { event: string; targets: string[]; guard: string | null };
export type ChartState = {
  /** Dotted path from the root: "running.paused". */
  path: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  initial: string | null;
  invokes: string[];
  transitions: ChartTransition[];
};
export type Chart = { id: string; initial: string | null; states: ChartState[]; events: string[] };

type Node = AnyStateMachine['root'];

/** The machine as plain data (states, transitions, events): what a state-chart debugging view draws. */
export function describeChart(machine: AnyStateMachine = debateMachine): Chart {
  const states: ChartState[] = [];
  const events = new Set<string>();
  const pathOf = (node: Node) => node.path.join('.');
  const visit = (node: Node) => {
    if (node.path.length > 0) {
      const transitions: ChartTransition[] = [];
      for (const [event, list] of node.transitions) {
        events.add(event);
        for (const t of list) {
          transitions.push({
            event,
            targets: (t.target ?? []).map((target) => pathOf(target as Node)),
            guard:
              typeof t.guard === 'string'
                ? t.guard
                : ((t.guard as { type?: string } | undefined)?.type ?? null),
          });
        }
      }
      states.push({
        path: pathOf(node),
        type: node.type,
        initial: node.initial?.target[0] ? pathOf(node.initial.target[0] as Node) : null,
        invokes: node.invoke.map((i) => String(i.src)),
        transitions,
      });
    }
    for (const child of Object.values(node.states)) visit(child as Node);
  };
  visit(machine.root);
  const initial = machine.root.initial?.target[0];
  return {
    id: machine.id,
    initial: initial ? pathOf(initial as Node) : null,
    states,
    events: [...events].sort(),
  };
}

const STATE_OF_STATUS: Record<string, string> = {
  pending: 'pending',
  running: 'running.speaking',
  paused: 'running.paused',
  completed: 'completed',
  failed: 'failed',
};

/** The machine state a stored status implies, for a debate no engine holds right now. */
export const stateOfStatus = (status: string): string => STATE_OF_STATUS[status] ?? 'pending';
