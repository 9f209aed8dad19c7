import { memo, useState } from 'react';
import { eventLabel } from '../../components/diagram/event-label.ts';
import { clockTime, sinceStart } from './chart-format.ts';
import { handOverText, type Moment } from './chart-moments.ts';

/** What a row says about its moment in one line: "→ judging (ROUND_DONE)" or "argument · Ada, round 2". */
export function momentTitle(moment: Moment): string {
  if (moment.kind === 'transition') return `→ ${moment.state} (${eventLabel(moment.event)})`;
  const { agent, round } = moment.data;
  const who =
    typeof agent === 'string' ? ` · ${agent}${typeof round === 'number' ? `, round ${round}` : ''}` : '';
  return `${moment.type}${who}`;
}

/**
 * Every moment of the debate as a list: time, name, hand-overs, and for events their payload on demand.
 * Rows are memoised, so moving the selection re-renders two rows, not the list.
 */
export function TimelineList({
  moments,
  selected,
  onSelect,
}: {
  moments: Moment[];
  selected: number;
  onSelect: (index: number) => void;
}) {
  const start = moments[0]?.at ?? '';
  return (
    <ol className="timeline-list">
      {moments.map((moment, index) => (
        <TimelineRow
          key={moment.key}
          moment={moment}
          index={index}
          start={start}
          selected={index === selected}
          onSelect={onSelect}
        />
      ))}
    </ol>
  );
}

const TimelineRow = memo(function TimelineRow({
  moment,
  index,
  start,
  selected,
  onSelect,
}: {
  moment: Moment;
  index: number;
  start: string;
  selected: boolean;
  onSelect: (index: number) => void;
}) {
  const classes = ['timeline-row', moment.kind];
  if (selected) classes.push('selected');
  return (
    <li className={classes.join(' ')} aria-current={selected ? 'step' : undefined}>
      <button type="button" className="timeline-pick" onClick={() => onSelect(index)}>
        <time dateTime={moment.at}>{clockTime(moment.at)}</time>
        <span className="muted"> {sinceStart(moment.at, start)}</span>
        <span className="timeline-name">{momentTitle(moment)}</span>
        {moment.kind === 'event' && <span className="muted"> #{moment.seq}</span>}
      </button>
      {moment.kind === 'transition' && moment.handOver && (
        <p className="handover">
          <span aria-hidden="true">⟲ </span>
          {handOverText(moment.handOver)}
        </p>
      )}
      {moment.kind === 'transition' && moment.node && !moment.handOver && index === 0 && (
        <p className="muted node-note">on node {moment.node}</p>
      )}
      {moment.kind === 'transition' ? (
        <Payload value={{ event: moment.event, state: moment.state, node: moment.node }} />
      ) : (
        <Payload value={moment.data} />
      )}
    </li>
  );
});

/** A payload as formatted JSON, serialised only once the reader opens it. */
function Payload({ value }: { value: unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="payload" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Payload</summary>
      {open && <pre>{JSON.stringify(value, null, 2)}</pre>}
    </details>
  );
}
