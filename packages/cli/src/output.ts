import Table from 'cli-table3';
import pc from 'picocolors';

/** Where a command writes: human output on a TTY, plain lines otherwise, NDJSON with --json. */
export type Output = {
  stream: NodeJS.WriteStream;
  tty: boolean;
  json: boolean;
  line: (text?: string) => void;
  /** One NDJSON record. */
  record: (value: unknown) => void;
  table: (head: string[], rows: (string | number)[][]) => void;
  /** One record as `label: value` lines; on a TTY the labels bold and the values aligned. */
  fields: (rows: [label: string, value: string][]) => void;
};

export function outputFor(stream: NodeJS.WriteStream, json: boolean): Output {
  const tty = Boolean(stream.isTTY) && !json;
  return {
    stream,
    tty,
    json,
    line: (text = '') => stream.write(`${text}\n`),
    record: (value) => stream.write(`${JSON.stringify(value)}\n`),
    table: (head, rows) => {
      if (!tty) {
        // Tab-separated lines for `cut` and `awk`: no borders, no colours.
        for (const row of rows) stream.write(`${row.join('\t')}\n`);
        return;
      }
      const table = new Table({ head: head.map((h) => pc.bold(h)), wordWrap: true });
      table.push(...rows.map((row) => row.map(String)));
      stream.write(`${table.toString()}\n`);
    },
    fields: (rows) => {
      const width = Math.max(0, ...rows.map(([label]) => label.length + 1));
      for (const [label, value] of rows)
        stream.write(tty ? `${pc.bold(`${label}:`.padEnd(width))} ${value}\n` : `${label}: ${value}\n`);
    },
  };
}

export const percent = (confidence: number) =>
  // The debate object says 0–1, the stream and /v1 whole-number percent.
  `${Math.round(confidence <= 1 ? confidence * 100 : confidence)}%`;

export const recommendationColour = (recommendation: string) => {
  if (recommendation === 'PROCEED') return pc.green(recommendation);
  if (recommendation === 'REJECT') return pc.red(recommendation);
  return pc.yellow(recommendation);
};
