const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** How a yes/no setting may be written, for the line that refuses another spelling. */
export const FLAG_SPELLINGS = 'true/false, 1/0, yes/no or on/off';

/**
 * A yes/no setting as people write it: true/false, 1/0, yes/no or on/off, in any case and with blanks
 * around it; null for anything else (which the configuration refuses rather than guesses at).
 *
 * @example
 * readFlag('1') // true
 * readFlag(' No ') // false
 * readFlag('maybe') // null
 */
export function readFlag(value: string): boolean | null {
  const word = value.trim().toLowerCase();
  if (TRUE.has(word)) return true;
  if (FALSE.has(word)) return false;
  return null;
}
