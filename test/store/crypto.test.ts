import { createHash, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createKeyring, DecryptionError } from '../../src/store/crypto.js';
import { newKey } from '../helpers/store-backends.js';

const TOKEN = `sa-token-${randomBytes(12).toString('hex')}`;

/** The error a call throws (fails the test when it does not throw). */
function thrown(call: () => unknown): Error {
  try {
    call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('keyring', () => {
  it('round-trips text with and without AAD, with a fresh IV each time', () => {
    const keyring = createKeyring({ current: newKey() });
    const a = keyring.encrypt(TOKEN, 'identity:T1:U1');
    const b = keyring.encrypt(TOKEN, 'identity:T1:U1');
    expect(a).not.toBe(b);
    expect(keyring.decrypt(a, 'identity:T1:U1')).toBe(TOKEN);
    expect(keyring.decrypt(keyring.encrypt('ünïcødé ✓'), undefined)).toBe('ünïcødé ✓');
    expect(a).not.toContain(TOKEN);
  });

  it('writes v1.<keyId>.<iv>.<tag>.<data>, keyId = first 8 bytes of SHA-256 of the key', () => {
    const key = newKey();
    const keyring = createKeyring({ current: key });
    const expectedId = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 16);
    expect(keyring.currentKeyId).toBe(expectedId);
    const parts = keyring.encrypt(TOKEN).split('.');
    expect(parts).toHaveLength(5);
    expect(parts.slice(0, 2)).toEqual(['v1', expectedId]);
    for (const part of parts.slice(2)) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('fails with DecryptionError naming the key id when the key is not configured', () => {
    const writer = createKeyring({ current: newKey() });
    const reader = createKeyring({ current: newKey() });
    const error = thrown(() => reader.decrypt(writer.encrypt(TOKEN, 'x'), 'x'));
    expect(error).toBeInstanceOf(DecryptionError);
    expect(error.message).toBe(
      `token was encrypted with key ${writer.currentKeyId}, which is not configured`,
    );
    expect((error as DecryptionError).keyId).toBe(writer.currentKeyId);
  });

  it('refuses a ciphertext moved to another row (AAD mismatch) or tampered with', () => {
    const keyring = createKeyring({ current: newKey() });
    const sealed = keyring.encrypt(TOKEN, 'identity:T1:U1');
    for (const aad of ['identity:T1:U2', 'identity:T2:U1', undefined]) {
      const error = thrown(() => keyring.decrypt(sealed, aad));
      expect(error).toBeInstanceOf(DecryptionError);
      expect(error.message).toMatch(/failed authentication/);
      expect(error.message).not.toContain(TOKEN);
    }
    const parts = sealed.split('.');
    const data = Buffer.from(parts[4]!, 'base64url');
    data[0] = data[0]! ^ 1;
    parts[4] = data.toString('base64url');
    expect(() => keyring.decrypt(parts.join('.'), 'identity:T1:U1')).toThrow(DecryptionError);
  });

  it('remembers what it decrypted (bounded), and a remembered value never unlocks another row or a tampered copy', () => {
    const keyring = createKeyring({ current: newKey(), cacheSize: 2 });
    const sealed = keyring.encrypt(TOKEN, 'identity:T1:U1');
    // Decrypted once, then answered from memory: the same value every time.
    expect(keyring.decrypt(sealed, 'identity:T1:U1')).toBe(TOKEN);
    expect(keyring.decrypt(sealed, 'identity:T1:U1')).toBe(TOKEN);
    // Remembered for (ciphertext, AAD) only: the same ciphertext under another row is still refused.
    expect(() => keyring.decrypt(sealed, 'identity:T1:U2')).toThrow(DecryptionError);
    expect(() => keyring.decrypt(sealed)).toThrow(DecryptionError);
    const parts = sealed.split('.');
    const tag = Buffer.from(parts[3]!, 'base64url');
    tag[0] = tag[0]! ^ 1;
    parts[3] = tag.toString('base64url');
    expect(() => keyring.decrypt(parts.join('.'), 'identity:T1:U1')).toThrow(DecryptionError);
    // Many more values than it keeps: every one still decrypts right.
    const many = Array.from({ length: 10 }, (_, i) => [
      `token-${i}`,
      keyring.encrypt(`token-${i}`, `row-${i}`),
    ]);
    for (let round = 0; round < 2; round++) {
      for (const [i, [plain, sealedOne]] of many.entries()) {
        expect(keyring.decrypt(sealedOne!, `row-${i}`)).toBe(plain);
      }
    }
  });

  it('refuses malformed ciphertexts clearly', () => {
    const keyring = createKeyring({ current: newKey() });
    for (const bad of ['', 'plain-token', 'v2.a.b.c.d', 'v1.abc.def']) {
      expect(() => keyring.decrypt(bad)).toThrow(/not in the v1 format/);
    }
    const [v, id] = keyring.encrypt(TOKEN).split('.');
    expect(() => keyring.decrypt(`${v}.${id}.AAAA.AAAA.AAAA`)).toThrow(/malformed/);
  });

  it('reads with previous keys, writes with the current one, and says what needs re-encryption', () => {
    const a = newKey();
    const b = newKey();
    const old = createKeyring({ current: a });
    const sealedA = old.encrypt(TOKEN, 'r');
    const rotated = createKeyring({ current: b, previous: [a] });
    expect(rotated.keyIds).toEqual([rotated.currentKeyId, old.currentKeyId]);
    expect(rotated.decrypt(sealedA, 'r')).toBe(TOKEN);
    expect(rotated.needsReencrypt(sealedA)).toBe(true);
    const sealedB = rotated.encrypt(TOKEN, 'r');
    expect(sealedB.split('.')[1]).toBe(rotated.currentKeyId);
    expect(rotated.needsReencrypt(sealedB)).toBe(false);
    expect(() => createKeyring({ current: b }).decrypt(sealedA, 'r')).toThrow(DecryptionError);
  });

  it('refuses keys that are not 32 bytes without echoing them', () => {
    const short = Buffer.from('sixteen-byte-key').toString('base64');
    const error = thrown(() => createKeyring({ current: short }));
    expect(error.message).toMatch(/current encryption key must be 32 bytes/);
    expect(error.message).not.toContain(short);
    expect(() => createKeyring({ current: newKey(), previous: [short] })).toThrow(/previous #1/);
  });

  it('never shows key material when inspected or serialised', () => {
    const key = newKey();
    const keyring = createKeyring({ current: key });
    const hex = Buffer.from(key, 'base64').toString('hex');
    for (const shown of [inspect(keyring, { depth: 5, showHidden: true }), JSON.stringify(keyring)]) {
      expect(shown).not.toContain(key);
      expect(shown).not.toContain(hex);
    }
  });
});
