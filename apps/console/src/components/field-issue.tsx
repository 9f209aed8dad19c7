import { useId } from 'react';
import { fieldOf, issuesOf } from '../lib/form-issues.ts';

/**
 * The validation issues of a form's fields, shown under each field they name. `control(name)` gives a field's
 * control its name and ties it to its issue (aria-invalid, aria-describedby); `issue(name)` is the text.
 */
export function useFieldIssues(error: unknown) {
  const prefix = useId();
  const issues = issuesOf(error);
  const messagesOf = (name: string) =>
    issues.filter((issue) => fieldOf(issue) === name).map((i) => i.message);
  const idOf = (name: string) => `${prefix}-${name}-issue`;
  return {
    control(name: string, describedBy?: string) {
      const invalid = messagesOf(name).length > 0;
      const ids = [invalid ? idOf(name) : null, describedBy ?? null].filter(Boolean).join(' ');
      return { name, 'aria-invalid': invalid || undefined, 'aria-describedby': ids || undefined };
    },
    issue(name: string) {
      const messages = messagesOf(name);
      if (messages.length === 0) return null;
      return (
        <p id={idOf(name)} className="field-issue">
          {messages.join(' ')}
        </p>
      );
    },
  };
}
