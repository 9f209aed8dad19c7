import { type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Layout } from './components/layout.tsx';
import { PageErrorBoundary } from './components/page-error-boundary.tsx';
import { page } from './lib/page.ts';
import { SessionProvider, useSession } from './lib/session.tsx';

// Each page is its own chunk: a share page's visitor downloads the share page, not the dashboard, and
// only the state-chart debugger pulls in the graph layout engine.
const SignIn = page(() => import('./pages/sign-in.tsx'));
const Share = page(() => import('./pages/share.tsx'));
const Debates = page(() => import('./pages/dashboard/debates.tsx'));
const Outcomes = page(() => import('./pages/dashboard/outcomes.tsx'));
const Scores = page(() => import('./pages/dashboard/scores.tsx'));
const Keys = page(() => import('./pages/dashboard/keys.tsx'));
const Usage = page(() => import('./pages/dashboard/usage.tsx'));
const Notifications = page(() => import('./pages/dashboard/notifications.tsx'));
const Workspaces = page(() => import('./pages/dashboard/workspaces.tsx'));
const Audit = page(() => import('./pages/dashboard/audit.tsx'));
const LiveDebate = page(() => import('./pages/debate/live.tsx'));
const StateChart = page(() => import('./pages/debate/chart.tsx'));
const ArgumentGraph = page(() => import('./pages/debate/graph.tsx'));

/**
 * The page the address names, fetched while the session is checked rather than after: a page opened by its
 * address (a link to a debate) then renders as soon as the session answers.
 */
const PRELOADS: [RegExp, { preload: () => Promise<unknown> }][] = [
  [/^\/share\/[^/]+$/, Share],
  [/^\/sign-in$/, SignIn],
  [/^\/$/, Debates],
  [/^\/outcomes$/, Outcomes],
  [/^\/scores$/, Scores],
  [/^\/keys$/, Keys],
  [/^\/usage$/, Usage],
  [/^\/notifications$/, Notifications],
  [/^\/workspaces$/, Workspaces],
  [/^\/audit$/, Audit],
  [/^\/debates\/[^/]+$/, LiveDebate],
  [/^\/debates\/[^/]+\/chart$/, StateChart],
  [/^\/debates\/[^/]+\/graph$/, ArgumentGraph],
];
void PRELOADS.find(([pattern]) => pattern.test(window.location.pathname))?.[1]
  .preload()
  .catch(() => {}); // the page, when rendered, shows the failure (PageErrorBoundary)

export function App() {
  return (
    <SessionProvider>
      <PageErrorBoundary>
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <Switch>
            <Route path="/share/:token">{(p) => <Share token={p.token} />}</Route>
            <Route path="/sign-in">
              <SignIn />
            </Route>
            <Route>
              <Layout>
                <Suspense fallback={<p className="loading">Loading…</p>}>
                  <SignedIn>
                    <Switch>
                      <Route path="/">
                        <Debates />
                      </Route>
                      <Route path="/outcomes">
                        <Outcomes />
                      </Route>
                      <Route path="/scores">
                        <Scores />
                      </Route>
                      <Route path="/keys">
                        <Keys />
                      </Route>
                      <Route path="/usage">
                        <Usage />
                      </Route>
                      <Route path="/notifications">
                        <Notifications />
                      </Route>
                      <Route path="/workspaces">
                        <Workspaces />
                      </Route>
                      <Route path="/audit">
                        <Audit />
                      </Route>
                      <Route path="/debates/:id">{(p) => <LiveDebate key={p.id} id={p.id} />}</Route>
                      <Route path="/debates/:id/chart">{(p) => <StateChart id={p.id} />}</Route>
                      <Route path="/debates/:id/graph">{(p) => <ArgumentGraph id={p.id} />}</Route>
                      <Route>
                        <NotFound />
                      </Route>
                    </Switch>
                  </SignedIn>
                </Suspense>
              </Layout>
            </Route>
          </Switch>
        </Suspense>
      </PageErrorBoundary>
    </SessionProvider>
  );
}

/** Pages behind the session: a signed-out visitor is sent to sign in, and back here afterwards. */
function SignedIn({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (user === undefined) return <p className="loading">Loading…</p>;
  if (user === null) {
    const back = window.location.pathname + window.location.search;
    return <Redirect to={`/sign-in?next=${encodeURIComponent(back)}`} replace />;
  }
  return children;
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <a href="/">Back to your debates</a>
      </p>
    </section>
  );
}
