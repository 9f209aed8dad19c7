import { humanize } from '../../../components/format.ts';
import type { Schemas } from '../../../lib/api.ts';

/** Brier score, sample size and trend per domain. */
export function DomainsTable({ domains }: { domains: Schemas['DomainAccuracy'][] }) {
  return (
    <section aria-labelledby="score-domains">
      <h2 id="score-domains">By domain</h2>
      {domains.length === 0 ? (
        <p className="empty">No domain has a resolved outcome yet.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col" className="number">
                  Brier score
                </th>
                <th scope="col" className="number">
                  Outcomes
                </th>
                <th scope="col">Trend</th>
              </tr>
            </thead>
            <tbody>
              {domains.map((d) => (
                <tr key={d.domain}>
                  <th scope="row">{humanize(d.domain)}</th>
                  <td className="number">{d.brierScore.toFixed(3)}</td>
                  <td className="number">{d.sampleSize}</td>
                  <td>
                    <span className={`trend ${d.trend}`}>{humanize(d.trend)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
