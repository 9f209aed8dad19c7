/** A model's name; the local simulated debater model is labelled as such wherever it appears. */
export function ModelName({ model }: { model: string }) {
  const simulated = /simulated/i.test(model);
  return (
    <span className="model">
      {model}
      {simulated ? <span className="simulated-note"> (simulated debater model, not a real LLM)</span> : null}
    </span>
  );
}
