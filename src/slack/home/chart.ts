/**
 * The Home tab's small chart — per notion, my self grade beside my peers' average (0–10) — drawn
 * as SVG and rasterized to PNG by sharp, then uploaded to Slack (files.getUploadURLExternal, the
 * bytes to the upload URL, files.completeUploadExternal) so an image block can show it as a
 * `slack_file`. Nothing here names a grader or a date. Any failure leaves the chart out.
 */
import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import sharp from 'sharp';
import { request } from 'undici';
import { truncate } from '../../blockkit/index.js';
import type { ExperienceRow } from './snapshot.js';

const MAX_ROWS = 10;
const ROW = 34;
const LABEL = 170;
const WIDTH = 560;
const BAR = WIDTH - LABEL - 40;

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/** The chart as SVG text. Pure. */
export function chartSvg(rows: readonly ExperienceRow[]): string {
  const shown = rows.slice(0, MAX_ROWS);
  const height = 40 + shown.length * ROW;
  const bars = shown
    .map((r, i) => {
      const y = 30 + i * ROW;
      const name = truncate(r.notion, 22);
      const self =
        r.self === undefined
          ? ''
          : `<rect x="${LABEL}" y="${y}" width="${(BAR * r.self) / 10}" height="12" fill="#1d9bd1"/>`;
      const peers =
        r.peerAverage === undefined
          ? ''
          : `<rect x="${LABEL}" y="${y + 14}" width="${(BAR * r.peerAverage) / 10}" height="12" fill="#e8912d"/>`;
      return `<text x="8" y="${y + 18}" font-size="14">${escapeXml(name)}</text>${self}${peers}`;
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="DejaVu Sans, sans-serif">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<rect x="${LABEL}" y="8" width="12" height="12" fill="#1d9bd1"/><text x="${LABEL + 18}" y="19" font-size="12">me</text>` +
    `<rect x="${LABEL + 70}" y="8" width="12" height="12" fill="#e8912d"/><text x="${LABEL + 88}" y="19" font-size="12">peers (average)</text>` +
    `${bars}</svg>`
  );
}

/** The chart as PNG bytes. */
export async function renderChart(rows: readonly ExperienceRow[]): Promise<Buffer> {
  return sharp(Buffer.from(chartSvg(rows)))
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** A key that changes when the chart would. */
export const chartKey = (rows: readonly ExperienceRow[]) =>
  createHash('sha256')
    .update(JSON.stringify(rows.slice(0, MAX_ROWS)))
    .digest('hex')
    .slice(0, 16);

/** Uploads a PNG privately (shared nowhere) and returns its Slack file id. */
export async function uploadPng(
  client: WebClient,
  png: Buffer,
  { filename, title, signal }: { filename: string; title: string; signal?: AbortSignal },
): Promise<string> {
  const target = await client.files.getUploadURLExternal({ filename, length: png.byteLength });
  if (!target.upload_url || !target.file_id) throw new Error('files.getUploadURLExternal gave no upload URL');
  const sent = await request(target.upload_url, {
    method: 'POST',
    body: png,
    headers: { 'content-type': 'image/png' },
    ...(signal ? { signal } : {}),
  });
  await sent.body.dump();
  if (sent.statusCode !== 200) throw new Error(`the file upload answered HTTP ${sent.statusCode}`);
  await client.files.completeUploadExternal({ files: [{ id: target.file_id, title }] });
  return target.file_id;
}
