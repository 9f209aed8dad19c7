/**
 * A WAL position as PostgreSQL prints a pg_lsn (`16/B374D848`: the high and low 32 bits in hex), as a
 * number of bytes that compares and subtracts. Null stays null (no position: nothing written, not a standby).
 */
export function parseLsn(text: string | null | undefined): bigint | null {
  if (!text) return null;
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}
