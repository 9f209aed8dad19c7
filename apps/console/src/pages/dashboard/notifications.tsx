import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { FormError } from '../../components/form-error.tsx';
import { formatDateTime } from '../../components/format.ts';
import { data, rest, type Schemas } from '../../lib/api.ts';
import { useNotificationFeed } from '../../lib/notification-feed.tsx';

type Notification = Schemas['Notification'];
const PAGE_SIZE = 20;

/** Comments on and forks of your debates: read, mark read, and new ones as they arrive. */
export default function NotificationsPage() {
  const feed = useNotificationFeed();
  const { setUnreadCount, subscribe } = feed;
  const [items, setItems] = useState<Notification[] | undefined>(undefined);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  const loadPage = async (after: string | null, signal?: AbortSignal) => {
    const query = { limit: PAGE_SIZE, ...(after ? { cursor: after } : {}) };
    const page = await data(rest.GET('/api/notifications', { params: { query }, signal }));
    setItems((shown) => merge(after ? (shown ?? []) : [], page.notifications));
    setCursor(page.nextCursor);
    setUnreadCount(page.unreadCount);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the first page, once
  useEffect(() => {
    const controller = new AbortController();
    loadPage(null, controller.signal).catch((caught: unknown) => {
      if (!controller.signal.aborted) setError(caught);
    });
    return () => controller.abort();
  }, []);

  useEffect(
    () =>
      subscribe((arrived) => {
        setItems((shown) => merge([arrived], shown ?? []));
        setAnnouncement(`New notification: ${arrived.message}`);
      }),
    [subscribe],
  );

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const markRead = (body: { ids: string[] } | { all: true }) =>
    act(async () => {
      const answer = await data(rest.PATCH('/api/notifications/read', { body }));
      setUnreadCount(answer.unreadCount);
      const marked = 'ids' in body ? new Set(body.ids) : null;
      setItems((shown) => shown?.map((n) => (!marked || marked.has(n.id) ? { ...n, read: true } : n)));
      setAnnouncement('all' in body ? 'All notifications marked read.' : 'Marked read.');
    });

  const unread = feed.unreadCount ?? items?.filter((n) => !n.read).length ?? 0;
  return (
    <section className="dashboard">
      <div className="page-heading">
        <h1>Notifications</h1>
        <button
          type="button"
          className="secondary"
          disabled={busy || unread === 0}
          onClick={() => void markRead({ all: true })}
        >
          Mark all read
        </button>
      </div>
      <p className="unread-count">{unread === 0 ? 'No unread notifications.' : `${unread} unread`}</p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <FormError error={error} />
      {items === undefined ? (
        error ? null : (
          <p className="loading">Loading…</p>
        )
      ) : items.length === 0 ? (
        <p className="empty">
          No notifications yet: comments on and forks of your debates show up here as they happen.
        </p>
      ) : (
        <ul className="notification-list">
          {items.map((n) => (
            <li key={n.id} className={n.read ? 'notification' : 'notification unread'}>
              <div>
                {n.read ? null : <span className="visually-hidden">Unread: </span>}
                {n.debateId ? <Link href={`/debates/${n.debateId}`}>{n.message}</Link> : n.message}
                <div className="meta">
                  <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
                </div>
              </div>
              {n.read ? null : (
                <button
                  type="button"
                  className="secondary"
                  disabled={busy}
                  onClick={() => void markRead({ ids: [n.id] })}
                >
                  Mark read
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {cursor ? (
        <button
          type="button"
          className="secondary"
          disabled={busy}
          onClick={() => void act(() => loadPage(cursor))}
        >
          Load older
        </button>
      ) : null}
    </section>
  );
}

/** Newer first: an arrival the first page already holds is not listed twice. */
function merge(first: Notification[], then: Notification[]): Notification[] {
  const seen = new Set(first.map((n) => n.id));
  return [...first, ...then.filter((n) => !seen.has(n.id))];
}
