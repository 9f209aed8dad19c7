import ELK, { type ElkNode } from 'elkjs/lib/elk.bundled.js';

export type { ElkExtendedEdge, ElkLabel, ElkNode } from 'elkjs/lib/elk.bundled.js';

/** One layout engine for the page, made on first use: its start-up is the slow part of a first layout. */
let engine: InstanceType<typeof ELK> | null = null;

/**
 * Lays `graph` out with ELK's layered algorithm across nesting levels. Every coordinate in the answer is
 * relative to the root, so a drawing never has to add up its containers' offsets.
 */
export function layout(graph: ElkNode, options: Record<string, string> = {}): Promise<ElkNode> {
  engine ??= new ELK();
  return engine.layout({
    ...graph,
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.json.shapeCoords': 'ROOT',
      'elk.json.edgeCoords': 'ROOT',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.layered.spacing.nodeNodeBetweenLayers': '48',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '4',
      ...options,
      ...graph.layoutOptions,
    },
  });
}
