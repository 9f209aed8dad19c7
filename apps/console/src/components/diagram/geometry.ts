import type { ElkExtendedEdge } from './elk.ts';

export type Box = { x: number; y: number; width: number; height: number };

/** A laid-out edge: its SVG path and where its label sits (if it has one). */
export type EdgePath = { d: string; label: (Box & { text: string }) | null };

/** Text in the diagrams is 13px system-ui; this width is a little generous so that labels never clip. */
const CHAR_WIDTH = 7.6;
export const LINE_HEIGHT = 16;

export const textWidth = (text: string) => Math.ceil(text.length * CHAR_WIDTH);

/** The box of a laid-out ELK shape (zero where ELK left a value out). */
export const boxOf = (shape: { x?: number; y?: number; width?: number; height?: number }): Box => ({
  x: shape.x ?? 0,
  y: shape.y ?? 0,
  width: shape.width ?? 0,
  height: shape.height ?? 0,
});

/** The polyline ELK routed for an edge, start to end through its bend points. */
export function edgePath(edge: ElkExtendedEdge): EdgePath {
  const d = (edge.sections ?? [])
    .map((section) =>
      [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]
        .map((point, i) => `${i === 0 ? 'M' : 'L'}${round(point.x)} ${round(point.y)}`)
        .join(' '),
    )
    .join(' ');
  const label = edge.labels?.[0];
  return { d, label: label?.text ? { ...boxOf(label), text: label.text } : null };
}

const round = (n: number) => Math.round(n * 10) / 10;
