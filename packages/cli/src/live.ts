import type { DebateStreamEvent, Verdict } from '@verdict/sdk';
import { MultiBar, Presets } from 'cli-progress';
import pc from 'picocolors';
import { readableClaimTags } from './claim-tags.ts';
import type { Output } from './output.ts';
import { percent } from './output.ts';

const excerpt = (text: string, width: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
};

/**
 * Follows a debate's stream to its end, showing it as it goes: on a TTY each round and agent as it speaks
 * above a progress bar over the rounds; plain lines when stdout is no terminal; each event as one NDJSON
 * line with --json. Returns the terminal event (debate.completed or debate.failed) or null.
 */
export async function followDebate(client: Verdict, debateId: string, out: Output, signal?: AbortSignal) {
  // Set once debate.started says how many rounds there are.
  const live: { bars: MultiBar | null; bar: ReturnType<MultiBar['create']> | null } = {
    bars: null,
    bar: null,
  };
  let rounds = 0;
  let panel: string[] = [];
  const say = (text: string) => {
    if (live.bars) live.bars.log(`${text}\n`);
    else out.line(text);
  };
  let last: DebateStreamEvent | null = null;
  try {
    for await (const event of client.debates.stream(debateId, signal ? { signal } : {})) {
      if (out.json) {
        out.record(event);
      } else {
        render(event);
      }
      if (event.type === 'debate.completed' || event.type === 'debate.failed') last = event;
    }
  } finally {
    // log() lines wait for the next redraw: draw once more so none is lost, then leave the bar in place.
    live.bars?.update();
    live.bars?.stop();
  }
  return last;

  function render(event: DebateStreamEvent) {
    const width = Math.max(40, (out.stream.columns ?? 100) - 30);
    switch (event.type) {
      case 'debate.started': {
        rounds = event.data.rounds;
        panel = event.data.panel.map((member) => member.name);
        say(
          `${out.tty ? pc.bold('Debate') : 'debate'} ${event.data.debateId} (${event.data.mode}, ${rounds} rounds)`,
        );
        say(`panel: ${panel.join(', ')}`);
        if (out.tty) {
          live.bars = new MultiBar(
            {
              format: `${pc.cyan('{bar}')} round {value}/{total} {status}`,
              stream: out.stream,
              hideCursor: true,
              clearOnComplete: false,
            },
            Presets.shades_classic,
          );
          live.bar = live.bars.create(rounds, 0, { status: 'starting' });
        }
        return;
      }
      case 'round.started':
        say(out.tty ? pc.bold(`Round ${event.data.round}/${rounds}`) : `round ${event.data.round}/${rounds}`);
        live.bar?.update(event.data.round - 1, { status: 'in progress' });
        return;
      case 'agent.thinking':
        live.bar?.update({ status: `${event.data.agent} is thinking` });
        return;
      case 'argument':
      case 'rebuttal': {
        const to = event.type === 'rebuttal' ? ` → ${event.data.targetAgent}` : '';
        const who = out.tty ? pc.magenta(event.data.agent) : event.data.agent;
        const content = readableClaimTags(event.data.content, panel);
        say(`  ${who}${to} (round ${event.data.round}): ${excerpt(content, width)}`);
        return;
      }
      case 'agent.failed':
        say(`  ${event.data.agent} failed: ${event.data.reason}`);
        return;
      case 'round.converged':
        say(
          `  convergence after round ${event.data.round}: ${Math.round(event.data.score * 100)}%` +
            (event.data.stopping ? ' — converged, the remaining rounds are skipped' : ''),
        );
        return;
      case 'synthesis.started':
        live.bar?.update(rounds, { status: 'judging' });
        say(out.tty ? pc.bold('Synthesis') : 'synthesis');
        return;
      case 'verdict':
        live.bar?.update(rounds, { status: 'verdict' });
        say(
          `verdict: ${event.data.recommendation} (confidence ${percent(event.data.confidence)}): ${event.data.oneLiner}`,
        );
        return;
      case 'debate.failed':
        say(`debate failed: ${event.data.code}: ${event.data.error}`);
        return;
      case 'debate.completed':
        live.bar?.update(rounds, { status: 'done' });
        return;
      default:
        return;
    }
  }
}
