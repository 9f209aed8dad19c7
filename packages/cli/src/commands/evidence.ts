import type { Command } from 'commander';
import type { CommandContext } from '../config.ts';
import { citedPassages, evidenceLines } from '../evidence-listing.ts';
import { outputFor } from '../output.ts';

export function registerEvidenceCommands(program: Command, { connect }: CommandContext) {
  program
    .command('evidence')
    .description(
      "A debate's evidence: its passages (E1, E2 …), who cited each, checked or not, and the claims each " +
        'supports or undercuts (plans with the evidence engine: Pro, BYOK Pro, Enterprise; others exit 4 ' +
        'with where to upgrade)',
    )
    .argument('<id>', 'debate id')
    .option('--cited', 'only the passages a turn cited')
    .option('--json', 'the evidence as one JSON record')
    .action(async (id: string, options: { cited?: boolean; json?: boolean }) => {
      const client = await connect();
      const out = outputFor(process.stdout, Boolean(options.json));
      // A plan without the evidence engine throws PlanRequiredError: main prints the upgrade hint, exit 4.
      const evidence = await client.verdicts.evidence(id);
      if (out.json) {
        out.record(options.cited ? citedPassages(evidence) : evidence);
        return;
      }
      for (const line of evidenceLines(evidence, { citedOnly: Boolean(options.cited) })) out.line(line);
    });
}
