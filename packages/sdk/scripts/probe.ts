/**
 * The types the SDK's declarations are printed from (scripts/router-type.ts reads them with the compiler):
 * what a client sends and receives per procedure, the error shape, and the stream payloads. Never run.
 */
import type { inferRouterError, inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@verdict/api';
import type { Notification, StreamEventData } from '@verdict/contracts';
import type { z } from 'zod';

export type ProbeRecord = AppRouter['_def']['record'];
export type ProbeInputs = inferRouterInputs<AppRouter>;
export type ProbeOutputs = inferRouterOutputs<AppRouter>;
export type ProbeErrorShape = inferRouterError<AppRouter>;
export type ProbeStreamEvents = {
  [K in keyof typeof StreamEventData]: z.output<(typeof StreamEventData)[K]>;
};
export type ProbeNotification = z.output<typeof Notification>;
