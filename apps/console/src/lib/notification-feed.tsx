import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { client, data, rest, type Schemas } from './api.ts';
import { useSession } from './session.tsx';

type Notification = Schemas['Notification'];
type Listener = (notification: Notification) => void;
type Feed = {
  /** Unread notifications; undefined until first read (or while signed out). */
  unreadCount: number | undefined;
  /** What a write answered (marking read returns the count after it). */
  setUnreadCount: (count: number) => void;
  /** Hear each notification as it arrives; returns the unsubscribe. */
  subscribe: (listener: Listener) => () => void;
};

const FeedContext = createContext<Feed>({
  unreadCount: undefined,
  setUnreadCount: () => {},
  subscribe: () => () => {},
});

/**
 * One notification stream per signed-in tab: it keeps the unread count of the navigation badge current
 * and hands each arrival to the pages listening (the notifications page), so they need no stream of
 * their own. It closes on sign-out and when the app goes away.
 */
export function NotificationFeedProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const userId = user?.id;
  const [unreadCount, setUnreadCount] = useState<number | undefined>(undefined);
  const listeners = useRef(new Set<Listener>());

  useEffect(() => {
    setUnreadCount(undefined);
    if (!userId) return;
    const controller = new AbortController();
    const { signal } = controller;
    const readCount = () =>
      data(rest.GET('/api/notifications/unread-count', { signal })).then(
        (answer) => setUnreadCount(answer.unreadCount),
        () => {}, // the badge is a hint: without it the page still works
      );
    void readCount();
    void (async () => {
      let connections = 0;
      for await (const event of client.notifications.stream({ signal })) {
        if (event.type === 'connected') {
          // A reconnect may have missed changes made elsewhere (read in another tab): read the count anew.
          if (connections++ > 0) void readCount();
        } else {
          if (!event.data.read) setUnreadCount((count) => (count ?? 0) + 1);
          for (const listener of listeners.current) listener(event.data);
        }
      }
    })().catch(() => {}); // aborted, or the stream gave up reconnecting: the badge keeps its last count
    return () => controller.abort();
  }, [userId]);

  const subscribe = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);
  const value = useMemo(() => ({ unreadCount, setUnreadCount, subscribe }), [unreadCount, subscribe]);
  return <FeedContext value={value}>{children}</FeedContext>;
}

export const useNotificationFeed = () => useContext(FeedContext);
