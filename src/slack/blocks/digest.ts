/**
 * Private replies of `/plan digest`: the channel's digest settings with the next run in local time,
 * and the outcome of a change or of "now". The digest message itself is composed in src/digest/.
 */
import { DIGEST_USAGE } from '../../digest/command.js';
import { formatLocal } from '../../digest/time.js';
import type { ChannelLink } from '../../store/index.js';
import { context, md, message, section } from './kit.js';
import type { Reply } from './messages.js';

export interface DigestSettingsView {
  link: Pick<ChannelLink, 'slackChannelId' | 'digestTime' | 'timeZone' | 'weekdaysOnly' | 'digestEnabled'>;
  /** When the digest runs next; ignored while it is off. */
  nextRun: Date;
  /** Local date of the last scheduled digest posted, if any. */
  lastPostedDate?: string;
  /** What just changed, said first (e.g. "Digest time set to 08:30."). */
  changed?: string;
}

/** The channel's digest settings, the next run in the channel's zone, and how to change them. */
export function digestSettingsMessage(view: DigestSettingsView): Reply {
  const { link } = view;
  const days = link.weekdaysOnly ? 'on weekdays' : 'every day, weekends included';
  const state = link.digestEnabled
    ? md`Daily digest in <#${link.slackChannelId}>: *on*, at *${link.digestTime}* (${link.timeZone}) ${days}.`
    : md`Daily digest in <#${link.slackChannelId}>: *off* (was at ${link.digestTime}, ${link.timeZone}, ${days}).`;
  const next = link.digestEnabled ? `Next digest: *${formatLocal(view.nextRun, link.timeZone)}*.` : undefined;
  const last = view.lastPostedDate ? `Last digest: ${view.lastPostedDate}.` : 'No digest posted yet.';
  const text = [view.changed, state, next].filter(Boolean).join(' ');
  return message(text, [
    section([view.changed && `:white_check_mark: ${view.changed}`, state, next].filter(Boolean).join('\n')),
    context(last, DIGEST_USAGE.split('\n').join(' · ')),
  ]);
}

/** `/plan digest now` answers. */
export function digestNowMessage(
  result: { status: 'posted'; unchanged: boolean } | { status: 'busy' },
  slackChannelId: string,
): Reply {
  const text =
    result.status === 'busy'
      ? md`A digest is already being posted in <#${slackChannelId}>; it will be there in a moment.`
      : result.unchanged
        ? md`Posted in <#${slackChannelId}>: nothing changed since the last digest.`
        : md`Posted the digest in <#${slackChannelId}>.`;
  return message(text, [section(text)]);
}
