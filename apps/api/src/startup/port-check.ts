import { once } from 'node:events';
import { createServer } from 'node:net';
import { OperatorError } from '@verdict/core';

/**
 * Fails fast, before any slow start-up work, when the HTTP port cannot be had. The listen at the end can
 * still lose a race for it; `portRefusal` words that failure the same way.
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return; // the kernel picks a free one at listen
  const probe = createServer();
  probe.listen({ host, port, exclusive: true });
  try {
    await once(probe, 'listening');
  } catch (err) {
    throw portRefusal(err, host, port);
  }
  probe.close();
  await once(probe, 'close');
}

/** A one-line OperatorError for the usual reasons a listen fails; any other error unchanged. */
export function portRefusal(err: unknown, host: string, port: number): unknown {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new OperatorError(`port ${port} is in use; set PORT to another port`);
    case 'EACCES':
      return new OperatorError(
        `port ${port} needs privileges this process does not have; set PORT to another port`,
      );
    case 'EADDRNOTAVAIL':
      return new OperatorError(`HOST ${host} is not an address of this machine; set HOST to one that is`);
    default:
      return err;
  }
}
