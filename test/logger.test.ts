import { LogLevel } from '@slack/logger';
import { describe, expect, it } from 'vitest';
import { createLogger, redactSecrets, toSlackLogger } from '../src/logger.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJvcmdfaWQiOiJvMSJ9.c2lnbmF0dXJl';

function capture(level: 'debug' | 'info' = 'debug') {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => lines.push(line) } });
  return { logger, lines, text: () => lines.join('') };
}

describe('logger', () => {
  it('scrubs Slack tokens, JWTs and bearer credentials from free text', () => {
    expect(redactSecrets(`bot xoxb-123-456-abc app xapp-1-A1-2 jwt ${JWT} auth Bearer abc.def`)).toBe(
      'bot [redacted] app [redacted] jwt [redacted] auth Bearer [redacted]',
    );
    expect(redactSecrets('plain words stay')).toBe('plain words stay');
  });

  it('never writes a token: not in messages, secret-named fields or error texts', () => {
    const { logger, text } = capture();
    logger.info(`connected with ${JWT}`);
    logger.info(
      { token: 'opaque-secret', identity: { token: 'nested-secret', adminToken: 'admin-secret' } },
      'saved',
    );
    logger.error({ err: new Error(`request failed for xoxb-999-888-zzz and ${JWT}`) }, 'boom');
    const out = text();
    for (const secret of [JWT, 'opaque-secret', 'nested-secret', 'admin-secret', 'xoxb-999-888-zzz']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('[redacted]');
    expect(out).toContain('request failed for');
  });

  it('gives Bolt a logger that never goes below info (its debug lines echo payloads)', () => {
    const { logger, text } = capture('debug');
    const bolt = toSlackLogger(logger);
    bolt.debug('payload', { user: 'U1', grade: 7 });
    bolt.info('started with', 'xoxb-1-2-3');
    bolt.setLevel(LogLevel.DEBUG);
    bolt.debug('still hidden');
    const out = text();
    expect(out).not.toContain('payload');
    expect(out).not.toContain('still hidden');
    expect(out).toContain('started with [redacted]');
    expect(bolt.getLevel()).toBe(LogLevel.INFO);
  });

  it('does not turn Bolt debug arguments into text when debug is off', () => {
    const { logger } = capture('info');
    const bolt = toSlackLogger(logger);
    let serialised = 0;
    const payload = {
      toJSON() {
        serialised += 1;
        return { big: 'payload' };
      },
    };
    bolt.debug('payload', payload);
    expect(serialised).toBe(0);
    bolt.warn('payload', payload);
    expect(serialised).toBe(1);
  });
});
