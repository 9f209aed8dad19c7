import { createRequire } from 'node:module';

/**
 * undici, loaded by its first use (an outbound request: a webhook delivery, a page fetched for an
 * attachment), not at start: about 110 modules that most processes never need (BENCHMARKS.md, "The test
 * suite's time"). The package is CommonJS: this is the very module an `import` of it gives.
 */
let loaded: typeof import('undici') | undefined;
export function undici(): typeof import('undici') {
  loaded ??= createRequire(import.meta.url)('undici') as typeof import('undici');
  return loaded;
}
