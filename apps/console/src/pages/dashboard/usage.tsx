import { FormError } from '../../components/form-error.tsx';
import { data, rest } from '../../lib/api.ts';
import { PLAN_NAMES } from '../../lib/contracts.ts';
import { useLoad } from '../../lib/use-load.ts';
import { MonthTable } from './usage/month-table.tsx';
import { loadMonthUsage } from './usage/month-usage.ts';

/** Credits, plan and this month's debates. */
export default function UsagePage() {
  const balance = useLoad((signal) => data(rest.GET('/api/billing/balance', { signal })), []);
  const month = useLoad(loadMonthUsage, []);
  const monthName = new Date().toLocaleDateString(undefined, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

  return (
    <section className="dashboard">
      <div className="page-heading">
        <h1>Usage</h1>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            balance.reload();
            month.reload();
          }}
        >
          Refresh
        </button>
      </div>
      <FormError error={balance.error ?? month.error} />
      <dl className="figures" aria-label="Account">
        <div>
          <dt>Credits</dt>
          <dd>{balance.data ? balance.data.balance.toLocaleString() : '…'}</dd>
        </div>
        <div>
          <dt>Plan</dt>
          <dd>{balance.data ? PLAN_NAMES[balance.data.plan] : '…'}</dd>
        </div>
        <div>
          <dt>Debates in {monthName}</dt>
          <dd>{month.data ? `${month.data.total.debates}${month.data.truncated ? '+' : ''}` : '…'}</dd>
        </div>
        <div>
          <dt>Credits spent in {monthName}</dt>
          <dd>{month.data ? month.data.total.credits.toLocaleString() : '…'}</dd>
        </div>
      </dl>
      <p className="muted small">
        Credits per debate: fast 1, balanced 3, thorough 8. BYOK plans pay their providers directly and are
        not charged credits. Requests made with an API key are counted per key at <code>GET /v1/usage</code>.
      </p>
      <h2>This month by mode</h2>
      {month.data ? (
        <MonthTable usage={month.data} monthName={monthName} />
      ) : month.error ? null : (
        <p className="loading">Loading…</p>
      )}
    </section>
  );
}
