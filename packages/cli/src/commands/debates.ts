import { readFile } from 'node:fs/promises';
import type { Verdict } from '@verdict/sdk';
import type { Command } from 'commander';
import pc from 'picocolors';
import { readableClaimTags } from '../claim-tags.ts';
import type { CommandContext } from '../config.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { followDebate } from '../live.ts';
import { type Output, outputFor, percent, recommendationColour } from '../output.ts';
import { sourcesLines } from '../sources.ts';

const MODES = ['fast', 'balanced', 'thorough'] as const;
type Mode = (typeof MODES)[number];

const integer = (name: string) => (value: string) => {
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be a whole number`, EXIT.usage);
  return Number(value);
};

const jsonOut = (options: { json?: boolean }) => outputFor(process.stdout, Boolean(options.json));

/** The verdict, its decision matrix and the cost, once a debate has finished. */
async function showResult(client: Verdict, id: string, out: Output) {
  const [detail, debate] = await Promise.all([client.verdicts.retrieve(id), client.debates.retrieve(id)]);
  if (out.json) {
    out.record({ type: 'result', debate, verdict: detail.verdict });
    return;
  }
  const verdict = detail.verdict;
  if (!verdict) {
    out.line(`status: ${debate.status} (no verdict)`);
    return;
  }
  out.line();
  const label = out.tty ? recommendationColour(verdict.recommendation) : verdict.recommendation;
  out.line(
    `${out.tty ? pc.bold('Verdict:') : 'Verdict:'} ${label}, confidence ${percent(verdict.confidence)}`,
  );
  // The judge may repeat the debaters' claim tags: written out, with the agents the verdict names.
  const panel = verdict.arguments.map((argument) => argument.agent);
  const readable = (text: string) => readableClaimTags(text, panel);
  out.line(readable(verdict.oneLiner));
  if (verdict.decisionMatrix.length > 0) {
    out.line();
    out.line('Decision matrix');
    out.table(
      ['option', 'criterion', 'score', 'rationale'],
      verdict.decisionMatrix.map((row) => [row.option, row.criterion, row.score, readable(row.rationale)]),
    );
  }
  if (verdict.nextSteps.length > 0) {
    out.line();
    out.line('Next steps');
    for (const step of verdict.nextSteps) out.line(`  - ${readable(step)}`);
  }
  const sources = sourcesLines(verdict);
  if (sources.length > 0) out.line();
  for (const line of sources) out.line(line);
  if (debate.cost) {
    const c = debate.cost;
    out.line();
    out.line(
      `Cost: ${c.credits} credits, $${c.estimatedUsd.toFixed(4)}, ${c.llmCalls} model calls, ` +
        `${c.inputTokens} tokens in / ${c.outputTokens} out`,
    );
  }
}

/** Follows a debate to its end and shows the result; exit 1 when it failed. */
async function watchToEnd(client: Verdict, id: string, out: Output): Promise<number> {
  // Ctrl-C ends the stream cleanly (the progress bar gives the cursor back); the debate runs on.
  const interrupted = new AbortController();
  const onInterrupt = () => interrupted.abort();
  process.once('SIGINT', onInterrupt);
  let last: Awaited<ReturnType<typeof followDebate>>;
  try {
    last = await followDebate(client, id, out, interrupted.signal);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  if (interrupted.signal.aborted)
    throw new CliError(`stopped watching; the debate goes on: verdict watch ${id}`, 130);
  if (last?.type === 'debate.failed') return EXIT.failed;
  // The stream's last event is sent only once every read shows the final state.
  const debate = await client.debates.retrieve(id);
  await showResult(client, id, out);
  return debate.status === 'completed' ? EXIT.ok : EXIT.failed;
}

export function registerDebateCommands(program: Command, { connect, setExit }: CommandContext) {
  program
    .command('ask')
    .description('Start a debate and follow it live to its verdict')
    .argument('<question>', 'the decision to debate (10–2000 characters)')
    .option('--mode <mode>', `depth: ${MODES.join(', ')}`)
    .option('--agents <n>', 'number of agents (2–7)', integer('agents'))
    .option('--rounds <n>', 'number of rounds (1–5)', integer('rounds'))
    .option(
      '--stop-when-converged [threshold]',
      'skip the remaining rounds once the agents converge (threshold 0.5–1, default 0.8); their credits are refunded',
    )
    .option('--context-file <path>', 'a text file given to the agents as context (max 5000 characters)')
    .option(
      '--provider-key <provider:key>',
      'your own provider key (BYOK plans; repeatable; default VERDICT_PROVIDER_KEYS), e.g. openai:sk-…',
      (value: string, all: string[] = []) => [...all, value],
    )
    .option('--no-wait', 'print the debate id and return at once')
    .option('--json', 'NDJSON events on stdout, for scripts')
    .action(
      async (
        question: string,
        options: {
          mode?: string;
          agents?: number;
          rounds?: number;
          stopWhenConverged?: boolean | string;
          contextFile?: string;
          providerKey?: string[];
          wait: boolean;
          json?: boolean;
        },
      ) => {
        if (options.mode !== undefined && !MODES.includes(options.mode as Mode)) {
          throw new CliError(`--mode must be one of ${MODES.join(', ')}`, EXIT.usage);
        }
        const threshold =
          typeof options.stopWhenConverged === 'string' ? Number(options.stopWhenConverged) : undefined;
        if (threshold !== undefined && !(threshold >= 0.5 && threshold <= 1)) {
          throw new CliError('--stop-when-converged takes a threshold from 0.5 to 1', EXIT.usage);
        }
        let context: string | undefined;
        if (options.contextFile) {
          try {
            context = await readFile(options.contextFile, 'utf8');
          } catch (err) {
            throw new CliError(`cannot read --context-file: ${(err as Error).message}`, EXIT.usage);
          }
        }
        // Sent as X-Provider-Keys, used by the server for this debate only and never stored.
        const providerKeys = options.providerKey?.join(',') || process.env.VERDICT_PROVIDER_KEYS;
        const client = await connect();
        const out = jsonOut(options);
        const created = await client.debates.create(
          {
            question,
            ...(options.mode ? { mode: options.mode as Mode } : {}),
            ...(options.agents !== undefined ? { agentCount: options.agents } : {}),
            ...(options.rounds !== undefined ? { maxRounds: options.rounds } : {}),
            ...(options.stopWhenConverged ? { stopWhenConverged: true } : {}),
            ...(threshold !== undefined ? { convergenceThreshold: threshold } : {}),
            ...(context !== undefined ? { context } : {}),
          },
          providerKeys ? { headers: { 'x-provider-keys': providerKeys } } : {},
        );
        if (out.json) out.record({ type: 'created', ...created });
        else out.line(`${created.debateId}`);
        if (!options.wait) return;
        setExit(await watchToEnd(client, created.debateId, out));
      },
    );

  program
    .command('watch')
    .description('Follow a debate live (a finished one is replayed)')
    .argument('<id>', 'debate id')
    .option('--json', 'NDJSON events on stdout')
    .action(async (id: string, options: { json?: boolean }) => {
      const client = await connect();
      setExit(await watchToEnd(client, id, jsonOut(options)));
    });

  program
    .command('list')
    .description('Your debates, newest first')
    .option('--status <status>', 'pending, running, paused, completed or failed')
    .option('--limit <n>', 'how many (default 20)', integer('limit'), 20)
    .option('--json', 'one JSON debate per line')
    .action(async (options: { status?: string; limit: number; json?: boolean }) => {
      const client = await connect();
      const out = jsonOut(options);
      const rows: (string | number)[][] = [];
      const query = options.status ? { status: options.status as 'completed' } : {};
      let count = 0;
      for await (const debate of client.debates.list({ ...query, limit: Math.min(100, options.limit) })) {
        if (out.json) out.record(debate);
        else {
          const verdict = debate.verdict
            ? `${debate.verdict.recommendation} ${percent(debate.verdict.confidence)}`
            : '';
          rows.push([debate.id, debate.status, debate.createdAt, verdict, debate.question]);
        }
        if (++count >= options.limit) break;
      }
      if (!out.json) out.table(['id', 'status', 'created', 'verdict', 'question'], rows);
    });

  program
    .command('get')
    .description('A debate and its verdict')
    .argument('<id>', 'debate id')
    .option('--json', 'the debate and verdict as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const client = await connect();
      const out = jsonOut(options);
      const debate = await client.debates.retrieve(id);
      if (!out.json) {
        out.line(`${debate.id}  ${debate.status}  ${debate.mode ?? ''}`);
        out.line(debate.question);
      }
      if (debate.status === 'completed' || out.json) await showResult(client, id, out);
    });

  program
    .command('share')
    .description('Share a debate by link (rotates an existing link)')
    .argument('<id>', 'debate id')
    .option('--json', 'the share link as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const client = await connect();
      const link = await client.sharing.share(id);
      const out = jsonOut(options);
      if (out.json) out.record(link);
      else out.line(link.shareUrl);
    });
}
