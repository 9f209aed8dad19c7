import { Link, useLocation } from 'wouter';

/** The three views of one debate. */
export function DebateTabs({ id }: { id: string }) {
  const [location] = useLocation();
  const tabs = [
    { href: `/debates/${id}`, label: 'Debate' },
    { href: `/debates/${id}/chart`, label: 'State chart' },
    { href: `/debates/${id}/graph`, label: 'Argument graph' },
  ];
  return (
    <nav className="tabs" aria-label="Debate views">
      {tabs.map((tab) => (
        <Link key={tab.href} href={tab.href} aria-current={location === tab.href ? 'page' : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
