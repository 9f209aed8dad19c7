// The body of one sandboxed extraction (extraction-sandbox.ts): reads workerData, answers once, and ends.
import { parentPort, workerData } from 'node:worker_threads';
import { ExtractionError, extractText } from './extract-text.ts';
import type { ExtractionReply } from './extraction-sandbox.ts';

const { contentType, bytes, maxChars } = workerData as {
  contentType: string;
  bytes: Uint8Array;
  maxChars: number;
};
let reply: ExtractionReply;
try {
  reply = { text: await extractText(contentType, bytes, maxChars) };
} catch (error) {
  reply = { failure: error instanceof ExtractionError ? error.message : null };
}
parentPort?.postMessage(reply);
