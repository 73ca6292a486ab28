/**
 * A link's own settings besides its digest: the watch follows changes made outside Slack (on by
 * default), replies in task card threads become discoveries (off by default; tasks/thread-replies.ts).
 * The `/plan link` form sets both when it saves the link; the admin modal's links section turns
 * each on or off here — one change, through the store, for both surfaces (as `changeDigest` is for
 * the digest's).
 */
import type { ChannelLink } from '../../store/index.js';
import type { Services } from '../kit/services.js';

export type LinkSetting = 'watchEnabled' | 'threadDiscoveries';

/** Each setting as the form's checkbox and the admin section name it. */
export const LINK_SETTING_LABELS: Readonly<Record<LinkSetting, string>> = {
  watchEnabled: 'Follow changes made outside Slack',
  threadDiscoveries: 'Replies in card threads become discoveries',
};

/** The canvas of the plan (src/slack/canvas/), as the form's checkbox and the admin section name it. */
export const CANVAS_SETTING_LABEL = 'Keep the plan in a channel canvas';

/** A setting turned on or off. */
export interface LinkSettingChange {
  setting: LinkSetting;
  on: boolean;
}

const SAID: Readonly<Record<LinkSetting, readonly [on: string, off: string]>> = {
  watchEnabled: [
    'Changes made outside Slack are followed: cards and threads stay true.',
    'Changes made outside Slack are no longer followed.',
  ],
  threadDiscoveries: [
    'Replies in task card threads now become discoveries (the app must be in the channel to see them).',
    'Replies in task card threads no longer become discoveries.',
  ],
};

/**
 * Applies `change` to the link of `slackChannelId` in this workspace; with what it did in one
 * sentence. Undefined when the channel is not linked (any more).
 */
export async function changeLinkSetting(
  svc: Services,
  workspaceId: string,
  slackChannelId: string,
  change: LinkSettingChange,
): Promise<{ link: ChannelLink; changed: string } | undefined> {
  const link = await svc.deps.store.links.update(workspaceId, slackChannelId, {
    [change.setting]: change.on,
  });
  return link ? { link, changed: SAID[change.setting][change.on ? 0 : 1] } : undefined;
}

/** The link's settings in a few words, as the admin section shows them. */
export function linkSettingsLine(link: Pick<ChannelLink, LinkSetting>): string {
  const watch = link.watchEnabled
    ? 'Changes made outside Slack followed'
    : 'Changes made outside Slack not followed';
  const threads = link.threadDiscoveries
    ? 'replies in card threads become discoveries'
    : 'replies in card threads are not recorded';
  return `${watch}; ${threads}.`;
}
