import type { Schemas } from '../../lib/api.ts';
import { KeyEvidenceList } from '../evidence/key-evidence.tsx';
import { TurnText } from '../evidence/turn-text.tsx';

type FullVerdict = NonNullable<Schemas['VerdictDetail']['verdict']>;
type Cost = Schemas['DebateCost'];

const RECOMMENDATION_TEXT: Record<string, string> = {
  PROCEED: 'Proceed',
  RECONSIDER: 'Reconsider',
  REJECT: 'Reject',
  DEFER: 'Defer',
  MORE_INFO_NEEDED: 'More information needed',
  SPLIT_DECISION: 'Split decision',
};

/**
 * The judge's verdict: recommendation and confidence (whole-number percent), the decision matrix as a
 * table (options by criteria), key evidence (cited passages, or the judge's own list), dissent (the agents whose stance differs from the majority's,
 * and agents that could not speak), next steps, and what it cost when that may be shown. Tags the judge
 * wrote are links, as in the transcript.
 */
export function VerdictView({ verdict, cost }: { verdict: FullVerdict; cost: Cost | null }) {
  return (
    <section className="verdict panel" aria-labelledby="verdict-heading">
      <h2 id="verdict-heading">Verdict</h2>
      <p className="recommendation">
        {RECOMMENDATION_TEXT[verdict.recommendation] ?? verdict.recommendation}
        <span className="confidence"> · {verdict.confidence}% confidence</span>
      </p>
      <p>
        <strong>
          <TurnText text={verdict.oneLiner} />
        </strong>
      </p>
      <p>
        <TurnText text={verdict.narrative} />
      </p>
      <DecisionMatrix rows={verdict.decisionMatrix} />
      <KeyEvidenceList entries={verdict.keyEvidence} />
      <Dissent verdict={verdict} />
      {verdict.nextSteps.length > 0 ? (
        <>
          <h3>Next steps</h3>
          <ul>
            {verdict.nextSteps.map((step) => (
              <li key={step}>
                <TurnText text={step} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {cost ? <CostLine cost={cost} /> : null}
    </section>
  );
}

function DecisionMatrix({ rows }: { rows: FullVerdict['decisionMatrix'] }) {
  if (rows.length === 0) return null;
  const options = [...new Set(rows.map((row) => row.option))];
  const criteria = [...new Set(rows.map((row) => row.criterion))];
  const cell = (option: string, criterion: string) =>
    rows.find((row) => row.option === option && row.criterion === criterion);
  return (
    <>
      <h3>Decision matrix</h3>
      <div className="table-scroll">
        <table>
          <caption className="muted">Scores from 0 (worst) to 10 (best)</caption>
          <thead>
            <tr>
              <th scope="col">Option</th>
              {criteria.map((criterion) => (
                <th key={criterion} scope="col">
                  {criterion}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {options.map((option) => (
              <tr key={option}>
                <th scope="row">{option}</th>
                {criteria.map((criterion) => {
                  const found = cell(option, criterion);
                  return (
                    <td key={criterion} title={found?.rationale}>
                      {found ? found.score : '—'}
                      {found?.rationale ? (
                        <div className="muted">
                          <TurnText text={found.rationale} />
                        </div>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Dissent({ verdict }: { verdict: FullVerdict }) {
  const stances = verdict.arguments.map((argument) => argument.stance);
  const majority = mostCommon(stances);
  const dissenting = verdict.arguments.filter((argument) => argument.stance !== majority);
  if (dissenting.length === 0 && verdict.missingAgents.length === 0) return null;
  return (
    <>
      <h3>Dissent</h3>
      <ul>
        {dissenting.map((argument) => (
          <li key={argument.agent}>
            <strong>{argument.agent}</strong> ({argument.stance}):{' '}
            <TurnText text={argument.keyPoints.join('; ')} />
          </li>
        ))}
        {verdict.missingAgents.map((agent) => (
          <li key={agent}>
            <strong>{agent}</strong> could not speak (its provider failed).
          </li>
        ))}
      </ul>
    </>
  );
}

function CostLine({ cost }: { cost: Cost }) {
  return (
    <p className="muted">
      Cost: {cost.credits} credit{cost.credits === 1 ? '' : 's'} · ${cost.estimatedUsd.toFixed(4)} estimated ·{' '}
      {cost.inputTokens + cost.outputTokens} tokens in {cost.llmCalls} model calls
    </p>
  );
}

function mostCommon(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}
