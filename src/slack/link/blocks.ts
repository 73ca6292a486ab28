/**
 * The link modal: a Slack channel → a planning team, then one of its channels (picking the team
 * refreshes the channel select), then the digest's time, time zone and days.
 */

import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import {
  channelMention,
  context,
  input,
  type Mrkdwn,
  md,
  modal,
  option,
  section,
} from '../../blockkit/index.js';
import type { Channel, Team } from '../../planning/models.js';
import { noTeamYet, teamChannelInputs } from '../kit/inputs.js';
import { formProblem } from '../kit/modal.js';
import { toCheckedWire, wireValue } from '../kit/round-trip.js';
import { LINK_CHOICES, LINK_FIELD, LINK_VIEW } from './ids.js';
import { CANVAS_SETTING_LABEL, LINK_SETTING_LABELS } from './settings.js';

export interface LinkForm {
  slackChannelId: string;
  teams: Team[];
  teamId?: string;
  /** Channels of the selected team, once one is selected. */
  channels?: Channel[];
  channelId?: string;
  digestTime: string;
  timeZone: string;
  weekdaysOnly: boolean;
  digestEnabled: boolean;
  /** The link's own settings (store LINK_DEFAULTS for a new link). */
  watchEnabled: boolean;
  threadDiscoveries: boolean;
  /** The plan kept in the channel's canvas (offered on for a new link, off for one made before). */
  canvas?: boolean;
  problem?: Mrkdwn;
}

/** What the link modal carries in its private_metadata, as code reads it (see {@link LinkMeta}). */
export interface LinkMeta {
  /** The Slack channel being linked. */
  slackChannelId: string;
}

/** What the link modal carries in its private_metadata; on the wire `ch` the Slack channel. */
export const LinkMeta = wireValue(
  z.object({ ch: z.string().min(1) }),
  (w): LinkMeta => ({ slackChannelId: w.ch }),
  (meta) => ({ ch: meta.slackChannelId }),
);

export const DIGEST_CHOICES = { weekdaysOnly: 'weekdays_only', enabled: 'enabled' } as const;

/** A time-zone option: the value is the IANA name. */
export function timeZoneOption(zone: string): PlainTextOption {
  return option(zone.replace(/_/g, ' '), zone);
}

export const LINK_TITLE = 'Link this channel';

/** The digest's time and its zone (the zones load as typed: see time-zones.ts). */
export function digestTimeInputs(digestTime: string, timeZone: string): KnownBlock[] {
  return [
    input('Daily digest at', LINK_FIELD.digestTime.block, {
      type: 'timepicker',
      action_id: LINK_FIELD.digestTime.action,
      initial_time: digestTime,
    }),
    input('Time zone', LINK_FIELD.timeZone.block, {
      type: 'external_select',
      action_id: LINK_FIELD.timeZone.action,
      min_query_length: 1,
      initial_option: timeZoneOption(timeZone),
    }),
  ];
}

/** The link's own settings: the watch, and thread replies recorded as discoveries. */
function linkSettingsInput(
  form: Pick<LinkForm, 'watchEnabled' | 'threadDiscoveries' | 'canvas'>,
): KnownBlock {
  const settings = [
    { o: option(LINK_SETTING_LABELS.watchEnabled, LINK_CHOICES.watch), on: form.watchEnabled },
    {
      o: option(LINK_SETTING_LABELS.threadDiscoveries, LINK_CHOICES.threadDiscoveries),
      on: form.threadDiscoveries,
    },
    { o: option(CANVAS_SETTING_LABEL, LINK_CHOICES.canvas), on: form.canvas ?? false },
  ];
  const checked = settings.filter((s) => s.on).map((s) => s.o);
  return input(
    'Changes and threads',
    LINK_FIELD.linkOptions.block,
    {
      type: 'checkboxes',
      action_id: LINK_FIELD.linkOptions.action,
      options: settings.map((s) => s.o),
      ...(checked.length > 0 ? { initial_options: checked } : {}),
    },
    { optional: true },
  );
}

export function linkModal(form: LinkForm): ModalView {
  const checks = [
    option('Weekdays only', DIGEST_CHOICES.weekdaysOnly),
    option('Post a daily digest', DIGEST_CHOICES.enabled),
  ];
  const checked = checks.filter(
    (o) =>
      (o.value === DIGEST_CHOICES.weekdaysOnly && form.weekdaysOnly) ||
      (o.value === DIGEST_CHOICES.enabled && form.digestEnabled),
  );
  return modal({
    callbackId: LINK_VIEW.link,
    title: LINK_TITLE,
    submit: 'Link',
    close: 'Cancel',
    privateMetadata: toCheckedWire(LinkMeta, { slackChannelId: form.slackChannelId }),
    blocks: [
      section(md`Link ${channelMention(form.slackChannelId)} to a planning team and channel.`),
      ...noTeamYet(form),
      ...teamChannelInputs(form),
      ...digestTimeInputs(form.digestTime, form.timeZone),
      input(
        'Digest',
        LINK_FIELD.digestOptions.block,
        {
          type: 'checkboxes',
          action_id: LINK_FIELD.digestOptions.action,
          options: checks,
          ...(checked.length > 0 ? { initial_options: checked } : {}),
        },
        { optional: true },
      ),
      linkSettingsInput(form),
      context(md`Commands, shortcuts and the digest in this channel will use this link.`),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}
