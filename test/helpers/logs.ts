/** A logger at debug level whose lines (JSON, one per entry) the test reads back. */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logger.js';

export function capturedLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  });
  return { logger, lines };
}
