import type { ReactNode } from 'react';

/** A chart's data as a table that screen readers read and sighted readers do not see twice. */
export function VisuallyHiddenTable({
  caption,
  headers,
  rows,
}: {
  caption: string;
  headers: string[];
  rows: ReactNode[][];
}) {
  return (
    <table className="visually-hidden">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {headers.map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((cells, row) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed table, never reordered
          <tr key={row}>
            {cells.map((cell, column) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns of a fixed table
              <td key={column}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
