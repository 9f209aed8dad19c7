export { buildServer, type ServerOptions } from './http/server.ts';
export { type AppRouter, appRouter } from './router.ts';
