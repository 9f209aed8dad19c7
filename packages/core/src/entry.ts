/**
 * `@verdict/core/entry`: what an entry point needs before it knows whether it needs the rest of core (its
 * index is a few thousand modules): the configuration, the errors it reports, and who holds an embedded
 * DATA_DIR. `npm run admin` hands a command to the server that holds DATA_DIR with nothing more loaded
 * (BENCHMARKS.md, "The test suite's time"). The index exports the same modules, so a class is one class
 * whichever way it was imported.
 */
export { type Config, ConfigError, loadConfig } from './config/config.ts';
export { type LockHolder, liveHolder } from './embedded/data-dir-lock.ts';
export { AppError } from './shared/app-error.ts';
export { OperatorError } from './shared/operator-error.ts';
