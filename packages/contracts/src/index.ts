export * from './accounts.ts';
export * from './debate-resource.ts';
export * from './debates.ts';
export * from './errors.ts';
export * from './events.ts';
export * from './health.ts';
export * from './keys.ts';
export * from './plans.ts';
