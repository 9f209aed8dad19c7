import { messageOf } from '../lib/api.ts';
import { fieldOf, type Issue, issuesOf } from '../lib/form-issues.ts';

/**
 * A failed action's message, announced to screen readers as it appears. Validation issues of the fields the
 * form shows (`fields`) are shown at those fields (FieldIssue); the others are listed here, so none is lost.
 */
export function FormError({ error, fields = [] }: { error: unknown; fields?: readonly string[] }) {
  if (!error) return null;
  const issues = issuesOf(error);
  const elsewhere = issues.filter((issue) => !fields.includes(fieldOf(issue)));
  const atFields = issues.length - elsewhere.length;
  return (
    <div className="error" role="alert">
      <p>{atFields > 0 ? 'Please correct the marked fields.' : messageOf(error)}</p>
      {elsewhere.length > 0 ? (
        <ul>
          {elsewhere.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>{describe(issue)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const describe = (issue: Issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message);
