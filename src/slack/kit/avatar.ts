/**
 * A Slack profile photo made into the service's avatar: fetched from Slack's image URL with undici
 * (bounded in time and size), cropped to a centred square and resized by sharp to exactly 256×256,
 * written as PNG — and, when a photo's PNG is 200 KB or more, as a palette PNG with fewer colours
 * until it fits. The result always passes `avatarProblem` (the check the client makes before
 * sending).
 */
import sharp from 'sharp';
import { request } from 'undici';
import { LIMITS } from '../../planning/index.js';
import { avatarProblem } from '../../planning/png.js';

/** Photos larger than this are not read to the end. */
const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

/** Downloads a photo (http or https only). */
export async function fetchPhoto(
  url: string,
  { timeoutMs = 5_000 }: { timeoutMs?: number } = {},
): Promise<Buffer> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error('not an http(s) photo URL');
  const res = await request(parsed, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new Error(`the profile photo answered HTTP ${res.statusCode}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_PHOTO_BYTES) {
      res.body.destroy();
      throw new Error('the profile photo is too large');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Any image sharp reads (JPEG, PNG, WebP, GIF…) → a 256×256 PNG under 200 KB. */
export async function toAvatarPng(photo: Uint8Array): Promise<Buffer> {
  const { width, height, maxBytes } = LIMITS.avatar;
  const square = sharp(photo, { failOn: 'error' })
    .rotate() // honour EXIF orientation
    .resize(width, height, { fit: 'cover', position: 'attention' })
    .flatten({ background: '#ffffff' });
  let png = await square.clone().png({ compressionLevel: 9 }).toBuffer();
  for (const colours of [256, 128, 64, 32]) {
    if (png.byteLength < maxBytes) break;
    png = await square.clone().png({ compressionLevel: 9, palette: true, colours }).toBuffer();
  }
  const problem = avatarProblem(png);
  if (problem) throw new Error(`could not make an avatar: ${problem}`);
  return png;
}
