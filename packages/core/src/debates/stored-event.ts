/** A stored event of a debate stream: its number, type and payload (as the engine stored it). */
export type StoredEvent = { seq: number; type: string; data: unknown };
