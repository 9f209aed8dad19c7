import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import {
  type CommandContext,
  configPath,
  newClient,
  readConfig,
  resolveCredentials,
  writeConfig,
} from '../config.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { outputFor } from '../output.ts';

async function readKey(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.trim();
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await prompt.question('API key (vrd_…): ')).trim();
  } finally {
    prompt.close();
  }
}

export function registerAccountCommands(program: Command, { connect, policy }: CommandContext) {
  program
    .command('login')
    .description(`Store an API key (and the API's URL) in ${configPath()}, readable by you only`)
    .option('--key <key>', 'the API key; read from the terminal or stdin when absent')
    .option('--url <url>', 'the API base URL')
    .action(async (options: { key?: string; url?: string }) => {
      const current = await resolveCredentials();
      const url = options.url ?? process.env.VERDICT_URL ?? current.url;
      const apiKey = options.key ?? (await readKey());
      if (!apiKey) throw new CliError('No key given', EXIT.usage);
      const me = await newClient({ url, apiKey }, policy()).account.me();
      const path = await writeConfig({ ...(await readConfig()), url, apiKey });
      process.stdout.write(`Logged in as ${me.email} at ${url} (saved in ${path})\n`);
    });

  const keys = program.command('keys').description('Manage API keys');
  keys
    .command('create')
    .argument('<name>', 'a name for the key (1–100 characters)')
    .option('--json', 'the created key as JSON')
    .description('Create a key; its value is shown once')
    .action(async (name: string, options: { json?: boolean }) => {
      const client = await connect();
      const created = await client.keys.create({ name });
      const out = outputFor(process.stdout, Boolean(options.json));
      if (out.json) out.record(created);
      else {
        out.line(created.key);
        if (out.tty)
          process.stderr.write(`Key ${created.id} (${created.keyPrefix}…): shown once, store it now.\n`);
      }
    });
  keys
    .command('list')
    .option('--json', 'one JSON key per line')
    .description('Your active keys')
    .action(async (options: { json?: boolean }) => {
      const client = await connect();
      const list = await client.keys.list();
      const out = outputFor(process.stdout, Boolean(options.json));
      if (out.json) for (const key of list.keys) out.record(key);
      else
        out.table(
          ['id', 'name', 'prefix', 'created'],
          list.keys.map((k) => [k.id, k.name, k.keyPrefix, k.createdAt]),
        );
    });
  keys
    .command('revoke')
    .argument('<id>', 'the key id (not its value)')
    .description('Revoke a key for good')
    .action(async (id: string) => {
      const client = await connect();
      await client.keys.revoke(id);
      process.stdout.write(`revoked ${id}\n`);
    });

  program
    .command('usage')
    .description("This key's requests this month")
    .option('--json', 'the usage as JSON')
    .action(async (options: { json?: boolean }) => {
      const client = await connect();
      const usage = await client.account.usage();
      const out = outputFor(process.stdout, Boolean(options.json));
      if (out.json) return out.record(usage);
      out.line(`${usage.totalRequests} requests in ${usage.period} (rate limit ${usage.rateLimit}/min)`);
      out.table(
        ['endpoint', 'requests'],
        Object.entries(usage.byEndpoint).sort(([, a], [, b]) => b - a),
      );
    });
}
