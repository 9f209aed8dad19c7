import { AppError } from '@verdict/core';

/**
 * The path of the first string (value or key) holding a NUL character, or null. PostgreSQL cannot store NUL
 * in text, so such input must be refused as invalid before it reaches a query. Iterative: no recursion.
 */
export function findNulPath(value: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string };
    if (typeof item.value === 'string') {
      if (item.value.includes('\u0000')) return item.path;
    } else if (typeof item.value === 'object' && item.value !== null) {
      for (const [key, child] of Object.entries(item.value)) {
        const path = item.path ? `${item.path}.${key}` : key;
        if (key.includes('\u0000')) return path;
        stack.push({ value: child, path });
      }
    }
  }
  return null;
}

export const nulRefused = (path: string) =>
  new AppError('VALIDATION_ERROR', 'Request validation failed', {
    details: [{ path, message: 'Text must not contain NUL characters', code: 'invalid_characters' }],
  });
