import { humanize } from '../../../components/format.ts';
import type { ModeUsage, MonthUsage } from './month-usage.ts';

const FUNDING: Record<keyof MonthUsage['byFunding'], string> = {
  free_tier: 'free monthly allowance',
  user_credits: 'paid with credits',
  byok: 'your own provider keys',
};

/** This month's debates per mode, with how they were paid for. */
export function MonthTable({ usage, monthName }: { usage: MonthUsage; monthName: string }) {
  if (usage.total.debates === 0) return <p className="empty">No debates yet in {monthName}.</p>;
  const row = (r: ModeUsage, header: boolean) => (
    <tr key={r.mode} className={header ? 'total' : undefined}>
      <th scope="row">{humanize(r.mode)}</th>
      <td className="number">{r.debates}</td>
      <td className="number">{r.credits.toLocaleString()}</td>
      <td className="number">{r.llmCalls.toLocaleString()}</td>
      <td className="number">{r.tokens.toLocaleString()}</td>
    </tr>
  );
  const funded = Object.entries(usage.byFunding).filter(([, count]) => count > 0);
  return (
    <>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Debates in {monthName} by mode</caption>
          <thead>
            <tr>
              <th scope="col">Mode</th>
              <th scope="col">Debates</th>
              <th scope="col">Credits</th>
              <th scope="col">Model calls</th>
              <th scope="col">Tokens</th>
            </tr>
          </thead>
          <tbody>{usage.byMode.map((r) => row(r, false))}</tbody>
          <tfoot>{row(usage.total, true)}</tfoot>
        </table>
      </div>
      <p className="muted small">
        {funded.map(([source, count]) => `${count} ${FUNDING[source as keyof typeof FUNDING]}`).join(' · ')}
        {usage.truncated ? ' · only the latest 1,000 debates were counted' : ''}
      </p>
    </>
  );
}
