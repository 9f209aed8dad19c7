/** A readable list of what is wrong with the environment, one variable a line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
