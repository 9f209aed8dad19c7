import type { ElkNode } from 'elkjs/lib/elk.bundled.js';

export type { ElkExtendedEdge, ElkLabel, ElkNode } from 'elkjs/lib/elk.bundled.js';

type Elk = InstanceType<typeof import('elkjs/lib/elk.bundled.js').default>;

/**
 * The layout engine, loaded and made on first use: it is 1.5 MB of script whose start-up is the slow part
 * of a first layout, so only a page that lays something out at run time pays for it, in a chunk of its own.
 */
let engine: Promise<Elk> | null = null;
const elk = () => {
  engine ??= import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK());
  return engine;
};

/**
 * Lays `graph` out with ELK's layered algorithm across nesting levels. Every coordinate in the answer is
 * relative to the root, so a drawing never has to add up its containers' offsets.
 */
export async function layout(graph: ElkNode, options: Record<string, string> = {}): Promise<ElkNode> {
  return (await elk()).layout({
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
