/**
 * Where the encryption keys come from: ENCRYPTION_KEY (+ ENCRYPTION_KEYS_PREVIOUS) in production;
 * in development, a key file created once under DATA_DIR so a first run needs no setup.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { createKeyring, type Keyring } from './crypto.js';
import type { StoreLogger } from './logger.js';

export const LOCAL_KEY_FILE = '.local-encryption-key';

export type KeyConfig = Pick<Config, 'ENCRYPTION_KEY' | 'ENCRYPTION_KEYS_PREVIOUS' | 'NODE_ENV' | 'DATA_DIR'>;

/**
 * The keyring for this configuration.
 * @throws when no key is configured outside development (config refuses this too; this is a backstop).
 */
export function resolveKeyring(config: KeyConfig, logger: StoreLogger): Keyring {
  const previous = config.ENCRYPTION_KEYS_PREVIOUS ?? [];
  if (config.ENCRYPTION_KEY) return createKeyring({ current: config.ENCRYPTION_KEY, previous });
  if (config.NODE_ENV !== 'development') {
    throw new Error('ENCRYPTION_KEY is required outside development: tokens are never stored unencrypted');
  }
  const { path, created } = localKeyFile(config.DATA_DIR);
  const keyring = createKeyring({ current: readFileSync(path, 'utf8'), previous });
  logger.warn(
    `ENCRYPTION_KEY is not set: ${created ? 'created' : 'using'} the development key file ${path} ` +
      `(key ${keyring.currentKeyId}). Set ENCRYPTION_KEY before running anywhere else.`,
  );
  return keyring;
}

/**
 * Creates the key file unless it exists. Written aside then hard-linked into place: the link is
 * atomic and fails when the file exists, so two starts never see a half-written or second key.
 */
function localKeyFile(dataDir: string): { path: string; created: boolean } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // tokens live here: owner only
  const path = join(dataDir, LOCAL_KEY_FILE);
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, path);
    return { path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  if ((statSync(path).mode & 0o077) !== 0) {
    throw new Error(`${path} is readable by other users; restrict it (chmod 600) or delete it`);
  }
  return { path, created: false };
}
