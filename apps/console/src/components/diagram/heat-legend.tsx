import { HEAT_LEVELS, NO_VOTES } from './heat.ts';

/** The colour scale in words: every level's swatch, name and the share of agree votes it stands for. */
export function HeatLegend() {
  return (
    <figure className="heat-legend">
      <figcaption>Colour by votes (share of agree votes)</figcaption>
      <ul className="heat-levels">
        {[NO_VOTES, ...HEAT_LEVELS].map((level) => (
          <li key={level.id}>
            <span className={`heat-swatch heat-${level.id}`} aria-hidden="true" />
            {level.label} <span className="muted">({level.range})</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
