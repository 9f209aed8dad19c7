import { z } from 'zod';

/**
 * A character a reader can see: not whitespace, not a control or format character (zero-width spaces and
 * joiners, direction overrides, soft hyphens …), not one of Unicode's default-ignorable code points (Hangul
 * fillers, variation selectors …), not the blank Braille pattern.
 */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** True when the text shows at least one character: "\u200b\u202e " shows none. */
export const hasVisibleCharacter = (text: string): boolean => VISIBLE.test(text);

/**
 * A trimmed text field of `min`–`max` characters that must show something: text made only of invisible
 * characters is refused like an empty one.
 *
 * @example
 * visibleText(1, 100).parse('  Ada ') // 'Ada'
 * visibleText(1, 100).safeParse('\u200b\u200b').success // false
 */
export function visibleText(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min, { abort: true }) // too short says so once, without also "no visible characters"
    .max(max)
    .refine(hasVisibleCharacter, { message: 'Must contain visible characters' });
}
