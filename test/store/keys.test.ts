import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyring } from '../../src/store/crypto.js';
import { LOCAL_KEY_FILE, resolveKeyring } from '../../src/store/keys.js';
import { newKey } from '../helpers/store-backends.js';

function recordingLogger() {
  const lines: string[] = [];
  return { lines, info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
}

describe('resolveKeyring', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keys-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses ENCRYPTION_KEY and reads ENCRYPTION_KEYS_PREVIOUS', () => {
    const current = newKey();
    const previous = newKey();
    const logger = recordingLogger();
    const keyring = resolveKeyring(
      {
        ENCRYPTION_KEY: current,
        ENCRYPTION_KEYS_PREVIOUS: [previous],
        NODE_ENV: 'production',
        DATA_DIR: dir,
      },
      logger,
    );
    expect(keyring.currentKeyId).toBe(createKeyring({ current }).currentKeyId);
    const old = createKeyring({ current: previous }).encrypt('secret');
    expect(keyring.decrypt(old)).toBe('secret');
    expect(readdirSync(dir)).toEqual([]);
    expect(logger.lines).toEqual([]);
  });

  it('in development without a key, creates a 0600 key file once, reuses it, and warns without the key', () => {
    const config = {
      ENCRYPTION_KEYS_PREVIOUS: [],
      NODE_ENV: 'development' as const,
      DATA_DIR: join(dir, 'data'),
    };
    const logger = recordingLogger();
    const first = resolveKeyring(config, logger);
    const path = join(dir, 'data', LOCAL_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const key = readFileSync(path, 'utf8').trim();
    expect(Buffer.from(key, 'base64')).toHaveLength(32);

    const second = resolveKeyring(config, logger);
    expect(second.currentKeyId).toBe(first.currentKeyId);
    expect(second.decrypt(first.encrypt('hello'))).toBe('hello');
    expect(readdirSync(join(dir, 'data'))).toEqual([LOCAL_KEY_FILE]);

    expect(logger.lines).toHaveLength(2);
    expect(logger.lines[0]).toMatch(/created the development key file/);
    expect(logger.lines[1]).toMatch(/using the development key file/);
    for (const line of logger.lines) expect(line).not.toContain(key);
  });

  it('refuses a development key file others can read', () => {
    const config = { ENCRYPTION_KEYS_PREVIOUS: [], NODE_ENV: 'development' as const, DATA_DIR: dir };
    resolveKeyring(config, recordingLogger());
    chmodSync(join(dir, LOCAL_KEY_FILE), 0o644);
    expect(() => resolveKeyring(config, recordingLogger())).toThrow(/readable by other users/);
  });

  it('throws outside development when no key is set', () => {
    for (const NODE_ENV of ['production', 'test'] as const) {
      expect(() =>
        resolveKeyring({ ENCRYPTION_KEYS_PREVIOUS: [], NODE_ENV, DATA_DIR: dir }, recordingLogger()),
      ).toThrow(/ENCRYPTION_KEY is required outside development/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
