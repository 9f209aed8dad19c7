import { OperatorError } from '@verdict/core';
import { describe, expect, it } from 'vitest';
import { chooseServer } from './choose-server.ts';
import { loadUws } from './load-uws.ts';

describe('the HTTP server STREAMS picks', () => {
  it("is Node's http for `node`, without trying uWebSockets.js", () => {
    expect(chooseServer('node')).toEqual({ uws: null, note: "HTTP and streams: Node's http (STREAMS=node)" });
  });

  it('is uWebSockets.js for `auto` where its binary loads, else Node’s http with the reason; `uws` refuses to fall back', () => {
    const load = loadUws();
    const auto = chooseServer('auto');
    if (load.uws) {
      expect(auto).toEqual({ uws: load.uws, note: 'HTTP and streams: uWebSockets.js' });
      expect(chooseServer('uws').uws).toBe(load.uws);
    } else {
      // This machine's C library (glibc) is named, as the one log line says it.
      expect(auto.uws).toBeNull();
      expect(auto.note).toBe(`HTTP and streams: Node's http (uWebSockets.js not used: ${load.reason})`);
      expect(load.reason).toMatch(/glibc|does not load/);
      expect(() => chooseServer('uws')).toThrow(OperatorError);
    }
  });
});
