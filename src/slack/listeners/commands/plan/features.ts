/** `/plan features [planning | validation | execution | deep-context]`: the linked channel's features by stage. */
import { md } from '../../../../blockkit/index.js';
import {
  FEATURE_STAGE_FILTERS,
  FEATURE_STAGES,
  type FeatureStageFilter,
} from '../../../../planning/index.js';
import { featureList } from '../../../blocks/feature.js';
import { notice } from '../../../blocks/messages.js';
import { COMMAND } from '../../../ids.js';
import type { Subcommand } from './subcommand.js';

const USAGE = `features [${FEATURE_STAGE_FILTERS.join(' | ')}]`;

export const features: Subcommand = {
  name: 'features',
  usage: USAGE,
  summary: "this channel's features by stage, with their buttons",
  async run({ args, command, planning, svc, reply }) {
    const word = args.toLowerCase().replace(/\s+/g, '-');
    const filter = word === '' ? undefined : FEATURE_STAGE_FILTERS.find((s) => s === word);
    if (word !== '' && !filter) {
      await reply(notice(md`\`${word}\` is not a stage. Use \`${COMMAND} ${USAGE}\`.`));
      return;
    }
    const link = await svc.deps.store.links.get(planning.workspaceId, command.channel_id);
    if (!link) {
      await reply(
        notice(md`This channel is not linked to a planning channel yet: \`${COMMAND} link\` it first.`),
      );
      return;
    }
    const { planning: service } = await planning.acting();
    const [team, page] = await Promise.all([
      service.teams.read(link.teamId),
      service.features.list(link.teamId, link.channelId, {
        pageSize: 500,
        ...(filter ? { stage: filter as FeatureStageFilter } : {}),
      }),
    ]);
    const channel = team.channels.find((c) => c.id === link.channelId);
    const stage = filter ? FEATURE_STAGES[FEATURE_STAGE_FILTERS.indexOf(filter)] : undefined;
    await reply(
      featureList(
        `${team.teamName ?? team.id} › ${channel?.channelName ?? link.channelId}`,
        page.features,
        (f) => ({ teamId: link.teamId, channelId: link.channelId, featureId: f.id }),
        stage,
      ),
    );
  },
};
