import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { NotificationFeedProvider, useNotificationFeed } from '../lib/notification-feed.tsx';
import { useSession } from '../lib/session.tsx';

const NAV = [
  { href: '/', label: 'Debates' },
  { href: '/outcomes', label: 'Outcomes' },
  { href: '/scores', label: 'Decision score' },
  { href: '/keys', label: 'API keys' },
  { href: '/usage', label: 'Usage' },
  { href: '/workspaces', label: 'Workspaces' },
  { href: '/audit', label: 'Audit log' },
  { href: '/notifications', label: 'Notifications' },
];

/** The signed-in frame: a skip link, the site navigation, the page. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <NotificationFeedProvider>
      <Frame>{children}</Frame>
    </NotificationFeedProvider>
  );
}

function Frame({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const { unreadCount } = useNotificationFeed();
  const { user, signOut } = useSession();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link href="/" className="brand">
          Verdict
        </Link>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={location === item.href ? 'page' : undefined}>
                  {item.label}
                </Link>
                {item.href === '/notifications' && unreadCount ? <UnreadBadge count={unreadCount} /> : null}
              </li>
            ))}
          </ul>
        </nav>
        {user ? (
          <div className="account">
            <span>{user.name}</span>
            <button type="button" className="link-button" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        ) : null}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** Beside the link, not in it, so that the link's name stays "Notifications" while the count is read out. */
function UnreadBadge({ count }: { count: number }) {
  return (
    <span className="nav-badge">
      {count > 99 ? '99+' : count}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}
