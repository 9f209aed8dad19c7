import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const NUDGE_MODULE = fileURLToPath(new URL('./memory-reducer-nudge.ts', import.meta.url));
/** Long enough for the reducer's first two checks after the burst (1 s, then 8 s later), and a margin. */
const WATCH_MS = 14_000;

/**
 * A process allocates a burst (~50 MB live at a time, ~1 s), drops it and goes quiet; V8 reports each
 * decision of its memory reducer (--trace-memory-reducer). Resolves with what it printed once the reducer
 * started a collection, or after WATCH_MS.
 */
function burstThenIdle(nudged: boolean): Promise<string> {
  const script = `
    ${nudged ? `const { nudgeMemoryReducer } = await import(${JSON.stringify(NUDGE_MODULE)}); nudgeMemoryReducer();` : ''}
    let kept = [];
    const until = Date.now() + 1000;
    for (let i = 0; Date.now() < until; i++) {
      kept.push(Array.from({ length: 20000 }, (_, j) => ({ j, name: 'item-' + i + '-' + j })));
      if (kept.length > 20) kept.shift();
    }
    kept = null;
    setTimeout(() => {}, ${WATCH_MS + 5000});
  `;
  const child = spawn(
    process.execPath,
    [
      '--trace-memory-reducer',
      '--gc-memory-reducer-start-delay-ms=1000',
      '--input-type=module',
      '--eval',
      script,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let printed = '';
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(printed);
    };
    const timer = setTimeout(done, WATCH_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.includes('Memory reducer: started GC')) done();
    });
  });
}

describe('the memory reducer nudge', () => {
  it(
    'lets V8 give a burst back within seconds of going quiet, which it does not do unnudged',
    async () => {
      const [nudged, plain] = await Promise.all([burstThenIdle(true), burstThenIdle(false)]);
      expect(nudged).toContain('Memory reducer: low alloc');
      expect(nudged).toContain('Memory reducer: started GC');
      // The V8 heuristic the nudge works around (V8 13.1 on, Node 24: the runtime this project pins). When
      // this fails, the runtime's V8 runs the reducer by itself and memory-reducer-nudge.ts can go.
      expect(plain, 'the reducer ran without the nudge: it is no longer needed').not.toContain(
        'Memory reducer: started GC',
      );
      expect(plain).toContain('Memory reducer: high alloc');
    },
    WATCH_MS + 10_000,
  );
});
