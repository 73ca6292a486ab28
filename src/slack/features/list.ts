/**
 * `/plan features [stage]`: the linked channel's features by stage, each with its card's buttons.
 */
import type { KnownBlock } from '@slack/types';
import {
  actions,
  context,
  inline,
  type MessageBody,
  md,
  message,
  plural,
  section,
} from '../../blockkit/index.js';
import { FEATURE_STAGE_FILTERS, type FeatureStageFilter } from '../../planning/index.js';
import { FEATURE_STAGES, type FeatureLite } from '../../planning/models.js';
import { STAGE_NAMES } from '../../planning/stages.js';
import type { ChannelLink } from '../../store/index.js';
import type { Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import type { Acting } from '../kit/identity.js';
import { COMMAND } from '../kit/ids.js';
import { notice } from '../kit/messages.js';
import { actsAsOrgAdmin } from '../kit/planning-account.js';
import type { Services } from '../kit/services.js';
import {
  advanceLine,
  type FeatureButtonsOptions,
  type FeatureCoords,
  factsLine,
  featureButtons,
} from './card.js';
import { FEATURE_LIST_BLOCK_PREFIX } from './ids.js';

// ---------------------------------------------------------------------------------------------
// Lists: `/plan features`
// ---------------------------------------------------------------------------------------------

/** Features listed with their buttons, at most this many (3 blocks each, under Slack's 50). */
export const LISTED_FEATURES = 15;

/**
 * `/plan features [stage]`: the linked channel's features by stage, each with its card's buttons as
 * the one who asked may use them (the list is theirs alone). Each row's buttons carry the filter in
 * their block id, so a press redraws this list.
 */
export function featureList(
  where: string,
  features: readonly FeatureLite[],
  coordsOf: (f: FeatureLite) => FeatureCoords,
  filter?: FeatureStageFilter,
  viewer: Pick<FeatureButtonsOptions, 'deletesDeepContext'> = {},
): MessageBody {
  const stage = filter ? FEATURE_STAGES[FEATURE_STAGE_FILTERS.indexOf(filter)] : undefined;
  const scope = stage ? md` in *${STAGE_NAMES[stage]}*` : md``;
  const title = md`*Features of ${where}*${scope} (${features.length})`;
  if (features.length === 0) {
    return message(title, [
      section(title),
      context(md`None yet: create one with *New feature* (⚡ menu) or \`/plan feature new\`.`),
    ]);
  }
  const order = [...features].sort(
    (a, b) =>
      FEATURE_STAGES.indexOf(a.stage) - FEATURE_STAGES.indexOf(b.stage) ||
      (b.priority ?? 0) - (a.priority ?? 0),
  );
  const shown = order.slice(0, LISTED_FEATURES);
  const blocks: KnownBlock[] = [section(title)];
  shown.forEach((f, row) => {
    const counts = md`${plural(f.assumptions.length, 'assumption')} · ${plural(f.tasks.length, 'task')}`;
    blocks.push(
      section(md`:bulb: *${inline(f.heading ?? f.id, 150)}*\n${factsLine(f)} · ${counts}\n${advanceLine(f)}`),
      actions(
        `${FEATURE_LIST_BLOCK_PREFIX}${filter ?? ''}|${row}`,
        ...featureButtons(coordsOf(f), f, { details: true, ...viewer }),
      ),
    );
  });
  if (order.length > shown.length) {
    blocks.push(
      context(
        md`…and ${order.length - shown.length} more: narrow the list with a stage, e.g. \`/plan features validation\`.`,
      ),
    );
  }
  return message(title, blocks);
}

const USAGE = `features [${FEATURE_STAGE_FILTERS.join(' | ')}]`;

/** The stage filter a list row's block id carries, or undefined when the block is not a list row. */
export function listFilterOf(blockId: string | undefined): { filter?: FeatureStageFilter } | undefined {
  if (!blockId?.startsWith(FEATURE_LIST_BLOCK_PREFIX)) return undefined;
  const word = blockId.slice(FEATURE_LIST_BLOCK_PREFIX.length).split('|')[0];
  const filter = FEATURE_STAGE_FILTERS.find((s) => s === word);
  return filter ? { filter } : {};
}

/** The list of the features of the planning channel linked to `link`, as `acting` may use them. */
export async function featuresPage(
  acting: Acting,
  link: Pick<ChannelLink, 'teamId' | 'channelId'>,
  filter: FeatureStageFilter | undefined,
): Promise<MessageBody> {
  const { planning: service } = acting;
  const [team, page, deletesDeepContext] = await Promise.all([
    service.teams.read(link.teamId),
    service.features.list(link.teamId, link.channelId, {
      pageSize: 500,
      ...(filter ? { stage: filter } : {}),
    }),
    actsAsOrgAdmin(acting),
  ]);
  const channel = team.channels.find((c) => c.id === link.channelId);
  return featureList(
    `${team.teamName ?? team.id} › ${channel?.channelName ?? link.channelId}`,
    page.features,
    (f) => ({ teamId: link.teamId, channelId: link.channelId, featureId: f.id }),
    filter,
    { deletesDeepContext },
  );
}

export const featuresSubcommand: Subcommand<Services> = {
  name: 'features',
  usage: USAGE,
  summary: "this channel's features by stage, with their buttons",
  async run(svc, { text, command, context, reply }) {
    const planning = planningOf(context);
    const word = text.toLowerCase().replace(/\s+/g, '-');
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
    await reply(await featuresPage(await planning.acting(), link, filter));
  },
};
