/**
 * Private replies of `/plan digest`: the channel's digest settings with the next run in local time,
 * and the outcome of a change or of "now". The digest message itself is composed in src/digest/.
 */

import {
  channelMention,
  context,
  joinMd,
  link,
  type Mrkdwn,
  md,
  message,
  section,
  slackDate,
} from '../../blockkit/index.js';
import { DIGEST_USAGE_LINES } from '../../digest/command.js';
import type { ChannelLink } from '../../store/index.js';
import { formatLocal } from '../../time.js';
import type { Reply } from '../kit/messages.js';

export interface DigestSettingsView {
  link: Pick<ChannelLink, 'slackChannelId' | 'digestTime' | 'timeZone' | 'weekdaysOnly' | 'digestEnabled'>;
  /** When the digest runs next; ignored while it is off. */
  nextRun: Date;
  /** The last digest posted in the channel, scheduled or on demand, with a link to it when known. */
  lastDigest?: { postedAt: Date; permalink?: string };
  /** What just changed, said first (e.g. "Digest time set to 08:30."). */
  changed?: string;
}

/** The settings in one sentence, and the next run in the channel's zone while the digest is on. */
export function digestStateLines(view: DigestSettingsView): Mrkdwn[] {
  const { link } = view;
  const days = link.weekdaysOnly ? 'on weekdays' : 'every day, weekends included';
  const channel = channelMention(link.slackChannelId);
  const state = link.digestEnabled
    ? md`Daily digest in ${channel}: *on*, at *${link.digestTime}* (${link.timeZone}) ${days}.`
    : md`Daily digest in ${channel}: *off* (was at ${link.digestTime}, ${link.timeZone}, ${days}).`;
  if (!link.digestEnabled) return [state];
  return [state, md`Next digest: *${formatLocal(view.nextRun, link.timeZone)}*.`];
}

/**
 * When and where the last digest was posted (scheduled or on demand), if ever: the time as Slack
 * shows it to each reader, in their own time zone, and a link to the message when Slack gave one.
 */
export function digestLastLine(view: DigestSettingsView): Mrkdwn {
  const last = view.lastDigest;
  if (!last) return md`No digest posted yet.`;
  const when = slackDate(
    last.postedAt,
    '{date_short_pretty} at {time}',
    formatLocal(last.postedAt, view.link.timeZone),
  );
  const where = channelMention(view.link.slackChannelId);
  return last.permalink
    ? md`Last digest: ${when} in ${where} (${link(last.permalink, 'open it')}).`
    : md`Last digest: ${when} in ${where}.`;
}

/** The channel's digest settings, the next run in the channel's zone, and how to change them. */
export function digestSettingsMessage(view: DigestSettingsView): Reply {
  const lines = digestStateLines(view);
  const changed = view.changed === undefined ? [] : [md`${view.changed}`];
  return message(joinMd([...changed, ...lines], ' '), [
    section(joinMd([...changed.map((c) => md`:white_check_mark: ${c}`), ...lines])),
    context(digestLastLine(view), joinMd(DIGEST_USAGE_LINES, ' · ')),
  ]);
}

/** `/plan digest now` answers. */
export function digestNowMessage(
  result: { status: 'posted'; unchanged: boolean } | { status: 'busy' } | { status: 'unconfirmed' },
  slackChannelId: string,
): Reply {
  const channel = channelMention(slackChannelId);
  const text =
    result.status === 'busy'
      ? md`A digest is already being posted in ${channel}; it will be there in a moment.`
      : result.status === 'unconfirmed'
        ? md`The digest may have been posted in ${channel}: Slack did not confirm it, and it was not posted twice. Look in the channel before asking again.`
        : result.unchanged
          ? md`Posted in ${channel}: nothing changed since the last digest.`
          : md`Posted the digest in ${channel}.`;
  return message(text, [section(text)]);
}
