/** Messages on the bus are JSON. */
const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const encode = (value: unknown) => encoder.encode(JSON.stringify(value));
export const decode = <T>(data: Uint8Array) => JSON.parse(decoder.decode(data)) as T;
