import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OTLP/HTTP traces receiver on loopback that answers every export at once. It counts the spans of the
 * JSON exports (the protobuf ones are counted as exports and bytes).
 */
export async function startOtlpSink() {
  const received = { exports: 0, bytes: 0, jsonSpans: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      received.exports++;
      received.bytes += body.length;
      if (String(request.headers['content-type']).includes('json')) {
        const parsed = JSON.parse(body.toString('utf8')) as {
          resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[];
        };
        for (const resource of parsed.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? []) received.jsonSpans += scope.spans?.length ?? 0;
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
