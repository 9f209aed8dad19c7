/**
 * A refusal whose message alone tells the operator what is wrong and what to do (a folder in use, a port
 * taken): entry points print the message, one line, without a stack trace, and exit non-zero.
 */
export class OperatorError extends Error {
  override name = 'OperatorError';
}
