import { loadConfig, prepareTemplate } from '@verdict/core';

/**
 * `npm run prepare:embedded` (and, with `--install`, npm's postinstall): prepares the database template
 * that the first `npm start` on an empty DATA_DIR copies instead of creating a database from scratch.
 * During an install a failure is only a warning: start works without a template, just slower.
 */
const duringInstall = process.argv.includes('--install');
const say = (line: string) => process.stderr.write(`verdict: ${line}\n`);

try {
  const config = loadConfig();
  const started = performance.now();
  const { path, built } = await prepareTemplate(config.pgliteTemplates);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  say(
    built
      ? `prepared the embedded database template in ${seconds} s: ${path}`
      : `template up to date: ${path}`,
  );
} catch (err) {
  say(
    `could not prepare the embedded database template (${(err as Error).message}); ` +
      'npm start will create the database at its first start instead, which is slower',
  );
  process.exitCode = duringInstall ? 0 : 1;
}
