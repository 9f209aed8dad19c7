import { lazy, type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Layout } from './components/layout.tsx';
import { SessionProvider, useSession } from './lib/session.tsx';

// Each page is its own chunk: a share page's visitor downloads the share page, not the dashboard, and
// only the state-chart debugger pulls in the graph layout engine.
const SignIn = lazy(() => import('./pages/sign-in.tsx'));
const Share = lazy(() => import('./pages/share.tsx'));
const Debates = lazy(() => import('./pages/dashboard/debates.tsx'));
const Outcomes = lazy(() => import('./pages/dashboard/outcomes.tsx'));
const Scores = lazy(() => import('./pages/dashboard/scores.tsx'));
const Keys = lazy(() => import('./pages/dashboard/keys.tsx'));
const Usage = lazy(() => import('./pages/dashboard/usage.tsx'));
const Notifications = lazy(() => import('./pages/dashboard/notifications.tsx'));
const Workspaces = lazy(() => import('./pages/dashboard/workspaces.tsx'));
const LiveDebate = lazy(() => import('./pages/debate/live.tsx'));
const StateChart = lazy(() => import('./pages/debate/chart.tsx'));
const ArgumentGraph = lazy(() => import('./pages/debate/graph.tsx'));

export function App() {
  return (
    <SessionProvider>
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
