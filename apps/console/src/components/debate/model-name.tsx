/**
 * A model's name; the local simulated debater model is labelled as such wherever it appears (`explain`
 * says so in full, where a page first names it).
 */
export function ModelName({ model, explain = false }: { model: string; explain?: boolean }) {
  const simulated = /simulated/i.test(model);
  return (
    <span className="model">
      {model}
      {simulated ? (
        <span className="simulated-note">
          {explain ? ' (simulated debater model: no LLM provider is configured)' : ' (simulated)'}
        </span>
      ) : null}
    </span>
  );
}
