import { MIN_PASSWORD_LENGTH, NewPassword } from '@verdict/contracts';
import { dictionary } from '@zxcvbn-ts/language-common';
import { AppError } from '../shared/app-error.ts';

let common: Set<string> | undefined;

/**
 * The passwords people pick most (zxcvbn's list of about 49,000, ranked from breach corpora), lower-cased.
 * Only those long enough to pass the length rule matter; built on first use.
 */
function commonPasswords(): Set<string> {
  common ??= new Set(
    (dictionary['passwords-common'] as string[])
      .filter((password) => password.length >= MIN_PASSWORD_LENGTH)
      .map((password) => password.toLowerCase()),
  );
  return common;
}

export const isCommonPassword = (password: string) => commonPasswords().has(password.toLowerCase());

const refused = (message: string, code: string) =>
  new AppError('VALIDATION_ERROR', 'Request validation failed', {
    details: [{ path: 'password', message, code }],
  });

/**
 * The password policy, for every way an account gets a password: 10–200 characters, at least one visible,
 * not on the common list. Cheap: callers run it before spending a hash on the password.
 */
export function assertAcceptablePassword(password: string) {
  const parsed = NewPassword.safeParse(password);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw refused(issue?.message ?? 'Invalid password', issue?.code ?? 'invalid_password');
  }
  if (isCommonPassword(password)) {
    throw refused('This password is among the most commonly used ones; choose another', 'common_password');
  }
}
