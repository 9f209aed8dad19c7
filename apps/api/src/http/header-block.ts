import { type ServerResponse, validateHeaderName, validateHeaderValue } from 'node:http';

type Entry = readonly [name: string, value: string];

/** Headers a transport writes itself from how the body is sent, or when it closes the connection. */
const TRANSPORT_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);

/**
 * Headers that are the same on every response of a kind (helmet's), checked and rendered once. A response
 * that knows blocks (the uWebSockets.js bridge) writes one as a single string instead of a call and a check
 * per header — on a health check those were a fifth of the server's CPU — and shares it between responses
 * instead of copying it into each; any other response gets the headers one by one.
 */
export class HeaderBlock {
  readonly entries: readonly Entry[];
  /** The entries as they go on the wire, `Name: value` lines joined by CRLF, without the last one. */
  readonly wire: string;
  readonly #byLowerName: ReadonlyMap<string, string>;

  constructor(entries: Iterable<Entry>) {
    this.entries = [...entries];
    for (const [name, value] of this.entries) {
      // Node's checks, with Node's errors: nothing in a block could break the head it is written into.
      validateHeaderName(name);
      validateHeaderValue(name, value);
      if (TRANSPORT_HEADERS.has(name.toLowerCase())) throw new Error(`${name} cannot be in a header block`);
    }
    this.wire = this.entries.map(([name, value]) => `${name}: ${value}`).join('\r\n');
    this.#byLowerName = new Map(this.entries.map(([name, value]) => [name.toLowerCase(), value]));
  }

  has(lowerName: string): boolean {
    return this.#byLowerName.has(lowerName);
  }

  get(lowerName: string): string | undefined {
    return this.#byLowerName.get(lowerName);
  }
}

/** The method of a response that takes a block whole. */
export const takeHeaderBlock = Symbol('takeHeaderBlock');

type TakesHeaderBlock = { [takeHeaderBlock]: (block: HeaderBlock) => void };

/** Sets the block's headers on `res`: whole where the response takes blocks, else one by one. */
export function setHeaderBlock(res: ServerResponse, block: HeaderBlock) {
  const taker = (res as Partial<TakesHeaderBlock>)[takeHeaderBlock];
  if (taker) taker.call(res, block);
  else for (const [name, value] of block.entries) res.setHeader(name, value);
}
