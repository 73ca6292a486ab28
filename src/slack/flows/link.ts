/**
 * The link modal's content for one Slack channel: the organization's teams, and the channel's
 * current link and digest settings when it has one (else the admin's time zone and the defaults).
 * `/plan link` opens it for the channel it is typed in; the admin modal for a channel picked there.
 */
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { DIGEST_DEFAULTS } from '../../store/index.js';
import { linkModal } from '../blocks/link.js';
import { slackUserFacts } from '../context/admin.js';
import type { Acting } from '../context/identity.js';
import type { Services } from '../context/services.js';

export async function linkModalFor(
  svc: Services,
  client: WebClient,
  acting: Acting,
  slackChannelId: string,
): Promise<ModalView> {
  const service = acting.planning;
  const [facts, existing] = await Promise.all([
    slackUserFacts(client, acting.slackUserId),
    svc.deps.store.links.get(acting.workspaceId, slackChannelId),
  ]);
  const { teams } = await service.teams.listAll({ pageSize: 100 });
  const channels = existing ? (await service.teams.read(existing.teamId)).channels : undefined;
  return linkModal({
    slackChannelId,
    teams,
    teamId: existing?.teamId,
    channels,
    channelId: existing?.channelId,
    digestTime: existing?.digestTime ?? DIGEST_DEFAULTS.digestTime,
    timeZone: existing?.timeZone ?? facts.timeZone ?? DIGEST_DEFAULTS.timeZone,
    weekdaysOnly: existing?.weekdaysOnly ?? DIGEST_DEFAULTS.weekdaysOnly,
    digestEnabled: existing?.digestEnabled ?? DIGEST_DEFAULTS.digestEnabled,
  });
}
