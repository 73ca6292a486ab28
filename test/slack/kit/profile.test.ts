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
import { createPlanningClient } from '../../../src/planning/index.js';
import { avatarProblem, readPngSize } from '../../../src/planning/png.js';
import { ACCOUNT_ACTION, ACCOUNT_FIELD, FOLLOW_PROFILE_OPTION } from '../../../src/slack/account/ids.js';
import { toAvatarPng } from '../../../src/slack/kit/avatar.js';
import type { SlackDeps } from '../../../src/slack/kit/deps.js';
import { followSlackProfile } from '../../../src/slack/kit/profile.js';
import { eventually, Harness, TEAM, text, viewIdOf } from '../../helpers/slack-harness.js';

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
    // A pasted account follows Slack because its person chose it (see below).
    await h.store.identities.setFollowsProfile(TEAM, 'UMEM', true);
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
    await h.store.identities.setFollowsProfile(TEAM, 'UMEM', true);
    await change({ display_name: 'Ana Banana', image_original: `${photoUrl.replace(/:\d+\//, ':1/')}` });
    await eventually(
      () => h.logs.some((l) => l.includes('could not apply the Slack profile')),
      'the warning',
    );
    expect(h.sandbox.requests.count('accountAvatar')).toBe(0);
  });

  const pressFollow = (value: 'on' | 'off') =>
    h.press({ home: {} }, ACCOUNT_ACTION.followProfile, { value, user: 'UMEM' });
  const notFollowed = () => h.logs.filter((l) => l.includes('profile: not followed')).length;

  it('a pasted account is never renamed silently: only once its person chooses it on Home, and no longer once they stop', async () => {
    await h.connect('UMEM', 'member');
    const member = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken });
    const before = (await member.account.read()).userName;
    expect((await h.store.identities.get(TEAM, 'UMEM'))?.followsProfile).toBe(false);

    await change({ display_name: 'Shared Desk', image_original: photoUrl });
    await eventually(() => notFollowed() === 1, 'the profile change passed over');
    expect(h.sandbox.requests.count('accountUpdate')).toBe(0);
    expect(h.sandbox.requests.count('accountAvatar')).toBe(0);
    expect((await member.account.read()).userName).toBe(before);

    // Home shows the choice; the person turns it on: the Slack profile is applied at once.
    await h.event({ type: 'app_home_opened', user: 'UMEM', tab: 'home' });
    const tab = await h.slack.waitFor('views.publish', (b) =>
      JSON.stringify(b).includes(ACCOUNT_ACTION.followProfile),
    );
    expect(JSON.stringify(tab.body)).toContain('your Slack profile is not copied');
    await pressFollow('on');
    await eventually(async () => (await member.account.read()).userName === 'Shared Desk', 'the Slack name');
    await eventually(() => h.sandbox.requests.count('accountAvatar') === 1, 'the Slack photo');
    expect((await h.store.identities.get(TEAM, 'UMEM'))?.followsProfile).toBe(true);
    await h.slack.waitFor('views.publish', (b) => JSON.stringify(b).includes('now takes your Slack name'));
    // Both publishes of the press (at once, then filled) show the saved choice beside the banner,
    // never the old one (issue 36 item 5).
    const banner = 'now takes your Slack name';
    const redrawn = () =>
      h.slack.called('views.publish').filter((c) => JSON.stringify(c.body).includes(banner));
    await eventually(() => redrawn().length >= 2, 'the tab at once and filled');
    for (const call of redrawn()) {
      const view = JSON.stringify(call.body);
      expect(view).toContain('Stop following Slack');
      expect(view).not.toContain('your Slack profile is not copied');
      expect(view).not.toContain('Use my Slack name and photo');
    }

    // Off again: a later profile change leaves the account alone.
    await pressFollow('off');
    await eventually(
      async () => (await h.store.identities.get(TEAM, 'UMEM'))?.followsProfile === false,
      'the choice saved',
    );
    await change({ display_name: 'Someone Else', image_original: photoUrl });
    await eventually(() => notFollowed() === 2, 'the second change passed over');
    expect((await member.account.read()).userName).toBe('Shared Desk');
    expect(h.sandbox.requests.count('accountUpdate')).toBe(1);
  });

  it('connecting with a pasted token asks: unticked keeps the account as it is, ticked follows Slack', async () => {
    h.slack.users.set('UMEM', { id: 'UMEM', name: 'mem', displayName: 'Mem From Slack', photo: photoUrl });
    const member = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken });
    const before = (await member.account.read()).userName;

    await h.command('connect', 'UMEM');
    const open = await h.slack.waitFor('views.open');
    expect(JSON.stringify(open.body.view)).toContain('Use my Slack name and photo');
    await h.submit(viewIdOf(open), [[ACCOUNT_FIELD.token, text(h.sandbox.memberToken)]], { user: 'UMEM' });
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('stay as they are'));
    expect((await h.store.identities.get(TEAM, 'UMEM'))?.followsProfile).toBe(false);

    const since = h.slack.calls.length;
    await h.command('connect', 'UMEM');
    const second = await h.slack.waitFor('views.open', undefined, { since });
    await h.submit(
      viewIdOf(second),
      [
        [ACCOUNT_FIELD.token, text(h.sandbox.memberToken)],
        [
          ACCOUNT_FIELD.followProfile,
          {
            type: 'checkboxes',
            selected_options: [{ value: FOLLOW_PROFILE_OPTION, text: { type: 'plain_text', text: 'x' } }],
          },
        ],
      ],
      { user: 'UMEM' },
    );
    await h.slack.waitFor('views.update', (b) =>
      JSON.stringify(b.view).includes('will follow your Slack profile'),
    );
    expect((await h.store.identities.get(TEAM, 'UMEM'))?.followsProfile).toBe(true);
    await eventually(
      async () => (await member.account.read()).userName === 'Mem From Slack',
      'the Slack name',
    );
    expect(before).not.toBe('Mem From Slack');
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
