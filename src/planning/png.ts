import { LIMITS } from './models.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's IHDR chunk, or `null` when the bytes are not a PNG. */
export function readPngSize(bytes: Uint8Array): { width: number; height: number } | null {
  // Signature (8) + IHDR length (4) + "IHDR" (4) + width (4) + height (4).
  if (bytes.length < 24 || !SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * Why an avatar would be refused (PNG, exactly 256×256, under 200 KB), or `null` when it is fine.
 * Shared by the client (checked before sending) and the sandbox (checked on receipt).
 */
export function avatarProblem(bytes: Uint8Array): string | null {
  const { width, height, maxBytes } = LIMITS.avatar;
  if (bytes.byteLength >= maxBytes) return `avatar must be smaller than ${maxBytes / 1024} KB`;
  const size = readPngSize(bytes);
  if (!size) return 'avatar must be a PNG image';
  if (size.width !== width || size.height !== height) {
    return `avatar must be exactly ${width}x${height} pixels, got ${size.width}x${size.height}`;
  }
  return null;
}
