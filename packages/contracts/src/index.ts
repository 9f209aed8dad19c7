export * from './accounts.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './keys.ts';
export * from './plans.ts';
