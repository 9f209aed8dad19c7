/** Arrow heads for the diagrams' edges: `marker-end` points at a target, `marker-start` back at a source. */
export function ArrowDefs() {
  return (
    <defs>
      <marker
        id="diagram-arrow"
        viewBox="0 0 10 10"
        refX="9"
        refY="5"
        markerWidth="9"
        markerHeight="9"
        orient="auto-start-reverse"
        markerUnits="userSpaceOnUse"
      >
        <path d="M0 0 L10 5 L0 10 z" className="diagram-arrow-head" />
      </marker>
    </defs>
  );
}
