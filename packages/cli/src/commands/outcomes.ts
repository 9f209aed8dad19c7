import type { Command } from 'commander';
import type { CommandContext } from '../config.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { outputFor } from '../output.ts';
import { scoreFields } from '../score-fields.ts';

/** The API's outcome statuses: what the CLI lists and prints. */
const OUTCOMES = ['correct', 'partially_correct', 'wrong', 'too_early'] as const;
type Outcome = (typeof OUTCOMES)[number];

/** Words the CLI took before it used the API's; still accepted. */
const ALIASES: Record<string, Outcome> = { incorrect: 'wrong', partial: 'partially_correct' };

const WORDS = `${OUTCOMES.join(', ')} (or ${Object.keys(ALIASES).join(', ')})`;

export const outcomeStatusOf = (word: string): Outcome | undefined =>
  (OUTCOMES as readonly string[]).includes(word) ? (word as Outcome) : ALIASES[word];

export function registerOutcomeCommands(program: Command, { connect }: CommandContext) {
  program
    .command('outcome')
    .summary(`Say what became of a decision: ${OUTCOMES.join(', ')}`)
    .description(
      `Say what became of a decision: ${OUTCOMES.join(', ')}; ` +
        `${Object.entries(ALIASES)
          .map(([alias, status]) => `${alias} is taken for ${status}`)
          .join(', ')}`,
    )
    .argument('<id>', 'debate id')
    .argument('<result>', WORDS)
    .option('--notes <text>', 'notes (max 500 characters)')
    .option('--json', 'the outcome record as JSON')
    .action(async (id: string, result: string, options: { notes?: string; json?: boolean }) => {
      const status = outcomeStatusOf(result);
      if (!status) throw new CliError(`result must be one of ${WORDS}`, EXIT.usage);
      const client = await connect();
      const record = await client.outcomes.record(id, {
        outcomeStatus: status,
        ...(options.notes ? { outcomeNotes: options.notes } : {}),
      });
      const out = outputFor(process.stdout, Boolean(options.json));
      if (out.json) out.record(record);
      else out.line(`recorded ${record.outcomeStatus} for ${id}`);
    });

  program
    .command('score')
    .summary('Your decision score: resolved outcomes, Brier score, 1 - Brier, streak')
    .description(
      'Your decision score. The Brier score is the mean of (confidence − outcome)² over your resolved ' +
        'outcomes, the outcome 1 when correct, 0.5 when partially_correct, 0 when wrong: 0 is best, 1 worst. ' +
        '"1 - Brier" is 100 × (1 − Brier score), the API\'s accuracyPercentage: not the share of verdicts ' +
        'that came true (one wrong verdict at 50% confidence makes it 75%).',
    )
    .option('--json', "the API's score object as JSON")
    .action(async (options: { json?: boolean }) => {
      const client = await connect();
      const score = await client.scores.me();
      const out = outputFor(process.stdout, Boolean(options.json));
      if (out.json) return out.record(score);
      out.fields(scoreFields(score));
    });
}
