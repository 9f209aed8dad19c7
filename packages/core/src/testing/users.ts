import { randomBytes } from 'node:crypto';

/** The password every test user signs up with: one the password policy accepts (long enough, not common). */
export const TEST_PASSWORD = 'correct horse battery';

/** An address no other test uses, starting with `label`. */
export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.com`;

/**
 * What a test signs a fresh user up with, whichever way it reaches the API: a unique address starting with
 * `label`, TEST_PASSWORD, and `label` as the name.
 */
export const newUserCredentials = (label = 'user') => ({
  email: uniqueEmail(label),
  password: TEST_PASSWORD,
  name: label,
});
