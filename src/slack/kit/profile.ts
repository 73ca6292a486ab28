/**
 * The person's service account follows their Slack profile: its name is the Slack display name
 * (account.update) and its avatar the Slack profile photo (account.avatar), both with the person's
 * own token — for a provisioned account, and for a pasted one only when the person chose it (on
 * connect or on Home: a pasted account may be shared, or named differently on purpose). Applied on
 * connect and when `user_change` brings a profile whose name or photo differ
 * from the last one applied: the version (a hash of the two) is applied once (`store.once`), so a
 * retried event or another replica does not apply it twice, and unrelated profile edits do nothing.
 */
import { createHash } from 'node:crypto';
import { cut } from '../../blockkit/index.js';
import { ONCE_TTL } from '../../store/index.js';
import { fetchPhoto, toAvatarPng } from './avatar.js';
import type { SlackDeps } from './deps.js';

export interface SlackProfile {
  display_name?: string;
  real_name?: string;
  name?: string;
  image_original?: string;
  image_512?: string;
  image_192?: string;
}

/** A service-account name from a Slack profile: 3–64 safe characters. */
export function serviceAccountName(
  profile: { display_name?: string; real_name?: string; name?: string },
  slackUserId: string,
): string {
  const raw = [profile.display_name, profile.real_name, profile.name].find((n) => n && n.trim() !== '') ?? '';
  const clean = raw
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} ._'-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const name = clean.length >= 3 ? clean : `${clean ? `${clean} ` : ''}slack-${slackUserId}`.trim();
  return cut(name, 64).trim();
}

export type ProfileOutcome = 'applied' | 'unchanged' | 'not-connected' | 'not-following' | 'failed';

/**
 * Best effort, often in the background: never rejects (a store or service failure is logged and
 * answers 'failed'; it is tried again on the next profile change or connect).
 */
export async function followSlackProfile(
  deps: SlackDeps,
  workspaceId: string,
  slackUserId: string,
  profile: SlackProfile,
): Promise<ProfileOutcome> {
  const { store, logger, clients } = deps;
  try {
    const identity = await store.identities.get(workspaceId, slackUserId);
    if (!identity?.valid) return 'not-connected';
    if (!identity.followsProfile) {
      logger.debug(
        { workspaceId },
        'profile: not followed (a pasted account whose person did not choose it)',
      );
      return 'not-following';
    }
    const userName = serviceAccountName(profile, slackUserId);
    const photo = profile.image_original ?? profile.image_512 ?? profile.image_192;
    const version = createHash('sha256')
      // The identity's last change is part of it: a person who turns following on again gets their
      // profile applied at once, even one applied before they turned it off.
      .update(`${identity.serviceAccountId}\n${identity.updatedAt.getTime()}\n${userName}\n${photo ?? ''}`)
      .digest('hex')
      .slice(0, 24);
    const applied = await store.once.run(
      `profile:${workspaceId}:${slackUserId}:${version}`,
      ONCE_TTL.profileVersion,
      async () => {
        const planning = clients.planning(identity.token);
        await planning.account.update({ userName });
        if (photo) await planning.account.avatar({ avatar: await toAvatarPng(await fetchPhoto(photo)) });
        return 'applied' as const;
      },
    );
    if (!applied.first) return 'unchanged';
    logger.info(
      { workspaceId, serviceAccountId: identity.serviceAccountId, avatar: Boolean(photo) },
      'profile followed Slack',
    );
    return 'applied';
  } catch (error) {
    logger.warn({ workspaceId, err: error }, 'could not apply the Slack profile to the service account');
    return 'failed';
  }
}
