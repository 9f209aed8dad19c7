// An outside project's tRPC client of the API: a bare @trpc/client typed with the packed SDK's AppRouter,
// subscriptions over SSE. Type-checked with `tsc --strict` and run by tests/clients-trpc-subscriptions.test.ts,
// which stops the server under each subscription and starts it again: every line it prints is one record.
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import type { AppRouter } from '@verdict/sdk';
import { EventSource } from 'eventsource';

const [baseUrl = '', key = '', expectedNotifications = '0'] = process.argv.slice(2);
const say = (record: object) => process.stdout.write(`${JSON.stringify(record)}\n`);

const url = `${baseUrl}/trpc`;
const authorization = `Bearer ${key}`;
const trpc = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.type === 'subscription',
      // Node has no EventSource of its own: the eventsource package's, which sends the key through its fetch.
      true: httpSubscriptionLink({
        url,
        EventSource,
        eventSourceOptions: {
          fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization } }),
        },
      }),
      false: httpBatchLink({ url, headers: { authorization } }),
    }),
  ],
});

const { debateId } = await trpc.debates.create.mutate({
  question: 'Does a tRPC subscription survive its server going away?',
  agentCount: 3,
  maxRounds: 2,
});
say({ step: 'created', debateId });

// The debate's events to the end. httpSubscriptionLink resumes a dropped connection after the last id it got.
const ids: string[] = [];
const types: string[] = [];
let debateStarts = 0;
let confidence: number | null = null;
await new Promise<void>((resolve, reject) => {
  trpc.debates.stream.subscribe(
    { id: debateId },
    {
      onStarted: () => {
        debateStarts++;
      },
      onData: ({ id, data: event }) => {
        ids.push(id);
        types.push(event.type);
        // `type` narrows `data`: the verdict's confidence is a whole-number percent.
        if (event.type === 'verdict') confidence = event.data.confidence;
        say({ step: 'event', id, type: event.type });
      },
      onError: reject,
      onComplete: resolve,
    },
  );
});
const chart = await trpc.debates.statechart.query({ id: debateId });
say({
  step: 'debate',
  ids,
  types,
  stored: (chart.events ?? []).map((event) => String(event.seq)),
  starts: debateStarts,
  confidence,
});

// The caller's notifications, from now on: comments the test makes on the debate once it is public.
await trpc.debates.setVisibility.mutate({ id: debateId, isPublic: true });
const notifications: string[] = [];
let notificationStarts = 0;
await new Promise<void>((resolve, reject) => {
  const done = () => {
    clearTimeout(deadline);
    subscription.unsubscribe();
    resolve();
  };
  // What it has after a minute, if not all it expects: the test then shows which are missing.
  const deadline = setTimeout(done, 60_000);
  const subscription = trpc.notifications.stream.subscribe(
    {},
    {
      onStarted: () => {
        notificationStarts++;
        if (notificationStarts === 1) say({ step: 'notifications-started' });
      },
      onData: ({ id, data: notification }) => {
        notifications.push(id);
        say({ step: 'notification', id, type: notification.type });
        // A moment more, so that a notification sent twice would be seen.
        if (notifications.length === Number(expectedNotifications)) setTimeout(done, 1000);
      },
      onError: reject,
    },
  );
});
const inbox = await trpc.notifications.list.query({ limit: 50 });
say({
  step: 'notifications',
  ids: notifications,
  stored: inbox.notifications.map((notification) => notification.id).reverse(),
  starts: notificationStarts,
});
