/**
 * The service account follows the Slack profile: the display name (account.update) and the photo,
 * fetched from its Slack URL (a loopback server here) and made into a 256×256 PNG under 200 KB
 * (account.avatar), on `user_change` over signed HTTP.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlanningClient } from '../../src/planning/index.js';
import { avatarProblem, readPngSize } from '../../src/planning/png.js';
import { toAvatarPng } from '../../src/slack/kit/avatar.js';
import type { SlackDeps } from '../../src/slack/kit/deps.js';
import { followSlackProfile } from '../../src/slack/kit/profile.js';
import { eventually, Harness, TEAM } from './harness.js';

/** Random pixels: the hardest case for PNG compression. */
const noise = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

describe('toAvatarPng', () => {
  it.each([
    ['a large JPEG photo', () => noise(1600, 1200).jpeg({ quality: 95 }).toBuffer()],
    ['a large PNG photo', () => noise(1024, 1024).png().toBuffer()],
    ['a small, wide PNG', () => noise(120, 40).png().toBuffer()],
  ])('makes %s into a 256×256 PNG under 200 KB', async (_what, make) => {
    const photo = await make();
    const avatar = await toAvatarPng(photo);
    expect(readPngSize(avatar)).toEqual({ width: 256, height: 256 });
    expect(avatar.byteLength).toBeLessThan(200 * 1024);
    expect(avatarProblem(avatar)).toBeNull();
  });

  it('refuses bytes that are no image, clearly', async () => {
    await expect(toAvatarPng(Buffer.from('not an image'))).rejects.toThrow(/unsupported image format/i);
  });
});

describe('profile follows Slack on user_change', () => {
  let h: Harness;
  let photos: Server;
  let photoUrl: string;
  let served = 0;
  beforeEach(async () => {
    h = await Harness.start();
    const jpeg = await noise(1200, 900).jpeg({ quality: 95 }).toBuffer();
    photos = createServer((_req, res) => {
      served += 1;
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(jpeg);
    });
    await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
    photoUrl = `http://127.0.0.1:${(photos.address() as AddressInfo).port}/photo_original.jpg`;
  });
  afterEach(async () => {
    photos.close();
    await h.close();
  });

  const change = (profile: Record<string, unknown>) =>
    h.event({ type: 'user_change', user: { id: 'UMEM', name: 'mem', deleted: false, profile } });

  it('renames the account after the display name and uploads the photo as its avatar, once per change', async () => {
    await h.connect('UMEM', 'member');
    const member = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken });
    const before = await member.account.read();

    const profile = { display_name: 'Ana Banana', real_name: 'Ana B', image_original: photoUrl };
    expect((await change(profile)).status).toBe(200);
    await eventually(async () => (await member.account.read()).userName === 'Ana Banana', 'the new name');
    await eventually(() => h.sandbox.requests.count('accountAvatar') === 1, 'the avatar upload');
    const after = await member.account.read();
    expect(after.userAvatarId).toBeTruthy();
    expect(after.userAvatarId).not.toBe(before.userAvatarId);

    // Slack retries the event, and an unrelated change (status text) arrives: nothing is sent again.
    await change(profile);
    await change({ ...profile, status_text: 'lunch' });
    await change({ ...profile, display_name: 'Ana' });
    await eventually(async () => (await member.account.read()).userName === 'Ana', 'the second name');
    await eventually(() => h.sandbox.requests.count('accountAvatar') === 2, 'the second avatar upload');
    expect(h.sandbox.requests.count('accountUpdate')).toBe(2);
    expect(served).toBe(2);
  });

  it('keeps the account as it was when the photo cannot be read, and says so in the log', async () => {
    await h.connect('UMEM', 'member');
    await change({ display_name: 'Ana Banana', image_original: `${photoUrl.replace(/:\d+\//, ':1/')}` });
    await eventually(
      () => h.logs.some((l) => l.includes('could not apply the Slack profile')),
      'the warning',
    );
    expect(h.sandbox.requests.count('accountAvatar')).toBe(0);
  });

  it('gives an account the app provisions the Slack photo as its avatar', async () => {
    await h.close();
    h = await Harness.start({ provisioning: true });
    h.slack.users.set('UNEW', { id: 'UNEW', name: 'newbie', realName: 'New Person', photo: photoUrl });
    await h.command('whoami', 'UNEW');
    await h.slack.waitFor('respond');
    await eventually(() => h.sandbox.requests.count('accountAvatar') === 1, 'the avatar of the new account');
    const identity = await h.store.identities.get(TEAM, 'UNEW');
    expect(identity?.origin).toBe('provisioned');
    const account = await h.owner().serviceAccounts.read(identity!.serviceAccountId);
    expect(account.userAvatarId).toBeTruthy();
    expect(account.userName).toBe('New Person');
  });
});

describe('followSlackProfile in the background', () => {
  it('never rejects: a store that is gone (shutdown) is logged and answers failed', async () => {
    const warned: string[] = [];
    const gone = () => Promise.reject(new Error('driver has already been destroyed'));
    const deps = {
      store: { identities: { get: gone }, interactions: { begin: gone, abandon: gone } },
      logger: { warn: (_: unknown, msg: string) => warned.push(msg), info: () => undefined },
      clients: {},
    } as unknown as SlackDeps;
    await expect(followSlackProfile(deps, TEAM, 'U1', { name: 'ana' })).resolves.toBe('failed');
    expect(warned).toEqual(['could not apply the Slack profile to the service account']);
  });
});
