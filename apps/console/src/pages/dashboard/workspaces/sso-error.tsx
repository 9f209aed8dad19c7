import { planRequiredOf } from '@verdict/sdk';
import { FormError } from '../../../components/form-error.tsx';

/**
 * A failed read or write of the connection: the plan refusal with where to upgrade, else as every form
 * shows an error (field issues at `fields`).
 */
export function SsoError({ error, fields }: { error: unknown; fields?: readonly string[] }) {
  const plan = planRequiredOf(error);
  if (!plan) return <FormError error={error} fields={fields} />;
  return (
    <div className="error" role="alert">
      <p>
        {plan.message.replace(/\.?$/, '.')} <a href={plan.upgradeUrl}>See the plans</a>
      </p>
    </div>
  );
}
