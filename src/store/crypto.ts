/**
 * Secrets at rest: AES-256-GCM with a keyring, so keys can rotate (old keys still read, new writes
 * use the current one) and each ciphertext is bound to its row by additional authenticated data.
 *
 * Format: `v1.<keyId>.<iv>.<tag>.<data>`, the last three base64url. keyId is the first 8 bytes (hex)
 * of the key's SHA-256: it names the key without revealing it.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  type KeyObject,
  randomBytes,
} from 'node:crypto';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** Plaintexts kept per keyring, by (ciphertext, AAD); least recently used dropped first. */
export const DECRYPTED_CACHE_SIZE = 1_000;

/** A ciphertext could not be turned back into its plaintext. Never carries the plaintext or a key. */
export class DecryptionError extends Error {
  constructor(
    message: string,
    /** Id of the key the ciphertext names, when it could be read. */
    readonly keyId?: string,
  ) {
    super(message);
    this.name = 'DecryptionError';
  }
}

/** Encrypts with the current key; decrypts with any configured key. */
export interface Keyring {
  /** Id of the key new ciphertexts are written with. */
  readonly currentKeyId: string;
  /** Every configured key id, current first. */
  readonly keyIds: readonly string[];
  /** `aad` binds the ciphertext to a context (e.g. its row): decrypting elsewhere fails. */
  encrypt(plaintext: string, aad?: string): string;
  /** @throws {DecryptionError} unknown key, malformed ciphertext, wrong AAD or tampering. */
  decrypt(ciphertext: string, aad?: string): string;
  /** True when the ciphertext was not written with the current key (rotation left it behind). */
  needsReencrypt(ciphertext: string): boolean;
}

export interface KeyringOptions {
  /** 32-byte key, base64: used for every new ciphertext. */
  current: string;
  /** Earlier keys, base64: still read, never written with. */
  previous?: readonly string[];
  /** Decrypted values kept (see `createKeyring`); 0 keeps none. Default 1 000. */
  cacheSize?: number;
}

/** Id of a key: first 8 bytes of its SHA-256, hex. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest().subarray(0, 8).toString('hex');
}

/** What every ciphertext written with key `keyId` starts with. */
export function ciphertextPrefix(keyId: string): string {
  return `${VERSION}.${keyId}.`;
}

function decodeKey(encoded: string, label: string): Buffer {
  const key = Buffer.from(encoded.trim(), 'base64');
  // The message names the key's role, never its value.
  if (key.length !== KEY_BYTES) {
    throw new Error(`${label} encryption key must be ${KEY_BYTES} bytes, base64 encoded (got ${key.length})`);
  }
  return key;
}

interface Parsed {
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  data: Buffer;
}

function parse(ciphertext: string): Parsed {
  const parts = ciphertext.split('.');
  const [version, keyId, iv, tag, data] = parts;
  if (
    parts.length !== 5 ||
    version !== VERSION ||
    !keyId ||
    iv === undefined ||
    tag === undefined ||
    data === undefined
  ) {
    throw new DecryptionError(`ciphertext is not in the ${VERSION} format`);
  }
  return {
    keyId,
    iv: Buffer.from(iv, 'base64url'),
    tag: Buffer.from(tag, 'base64url'),
    data: Buffer.from(data, 'base64url'),
  };
}

/** Builds a keyring from base64 keys; throws when a key is not 32 bytes. */
export function createKeyring(options: KeyringOptions): Keyring {
  const currentBytes = decodeKey(options.current, 'current');
  const currentKeyId = keyIdOf(currentBytes);
  // Keys live only in this closure: the keyring object shows ids, never key bytes. Key objects are
  // made once: importing raw bytes again on every call was part of each cipher's cost.
  const current = createSecretKey(currentBytes);
  const keys = new Map<string, KeyObject>([[currentKeyId, current]]);
  for (const [i, encoded] of (options.previous ?? []).entries()) {
    const key = decodeKey(encoded, `previous #${i + 1}`);
    const id = keyIdOf(key);
    if (!keys.has(id)) keys.set(id, createSecretKey(key));
  }
  /**
   * Every command reads its user's token from the store and decrypted it again. A ciphertext is
   * unique (random IV) and authenticated, so the same (ciphertext, AAD) always yields the same
   * plaintext: remembering it needs no invalidation — a changed row has a new ciphertext — and a
   * tampered or foreign one never matches an entry. Bounded; it holds tokens the planning client
   * cache (src/clients.ts) holds anyway.
   */
  const cacheSize = options.cacheSize ?? DECRYPTED_CACHE_SIZE;
  const decrypted = new Map<string, string>();

  return {
    currentKeyId,
    keyIds: [...keys.keys()],
    encrypt(plaintext, aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, current, iv, { authTagLength: TAG_BYTES });
      if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, currentKeyId, iv, tag, data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(ciphertext, aad) {
      const cacheKey = aad === undefined ? ciphertext : `${ciphertext}\u0000${aad}`;
      const known = decrypted.get(cacheKey);
      if (known !== undefined) {
        // Most recently used goes last.
        decrypted.delete(cacheKey);
        decrypted.set(cacheKey, known);
        return known;
      }
      const plaintext = decryptOnce(ciphertext, aad);
      if (cacheSize > 0) {
        if (decrypted.size >= cacheSize) decrypted.delete(decrypted.keys().next().value as string);
        decrypted.set(cacheKey, plaintext);
      }
      return plaintext;
    },
    needsReencrypt(ciphertext) {
      const [version, keyId] = ciphertext.split('.', 2);
      return version !== VERSION || keyId !== currentKeyId;
    },
  };

  function decryptOnce(ciphertext: string, aad: string | undefined): string {
    const { keyId, iv, tag, data } = parse(ciphertext);
    const key = keys.get(keyId);
    if (!key) {
      throw new DecryptionError(`token was encrypted with key ${keyId}, which is not configured`, keyId);
    }
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
      throw new DecryptionError(`ciphertext under key ${keyId} is malformed`, keyId);
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
      if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      // GCM says only "unable to authenticate"; say what that means here.
      throw new DecryptionError(
        `ciphertext under key ${keyId} failed authentication (tampered, or copied from another row)`,
        keyId,
      );
    }
  }
}
