import type { PanelSeat } from '../../lib/debate-log.ts';
import { ModelName } from './model-name.tsx';

/** The agents of a debate with their roles and models; nothing before the debate has a panel. */
export function PanelList({ panel }: { panel: PanelSeat[] }) {
  if (panel.length === 0) return null;
  return (
    <section aria-labelledby="panel-heading">
      <h2 id="panel-heading">Panel</h2>
      <ul>
        {panel.map((seat) => (
          <li key={seat.name}>
            <strong>{seat.name}</strong>, {seat.role} — <ModelName model={seat.model} explain />
          </li>
        ))}
      </ul>
    </section>
  );
}
