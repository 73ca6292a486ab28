/**
 * `/plan search <words>`: the organization's deep context — features that went through every stage —
 * each readable in a modal, and deletable by owners and admins (the card's own Delete, confirmed).
 */

import type { KnownBlock, ModalView } from '@slack/types';
import {
  actions,
  button,
  context,
  inline,
  joinMd,
  listSection,
  type MessageBody,
  md,
  message,
  modal,
  section,
} from '../../blockkit/index.js';
import { type Feature, type FeatureExpanded, LIMITS } from '../../planning/models.js';
import type { Subcommand } from '../bolt/routes.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { COMMAND, VIEW } from '../kit/ids.js';
import { notice } from '../kit/messages.js';
import { loadModal, modalRequest } from '../kit/modal.js';
import { actsAsOrgAdmin } from '../kit/planning-account.js';
import type { Services } from '../kit/services.js';
import { type FeatureCoords, featureButtons } from './card.js';
import { FEATURE_ACTION } from './ids.js';

/** Results shown with their buttons (2 blocks each, under Slack's 50). */
export const SHOWN_RESULTS = 20;

export const DEEP_CONTEXT_TITLE = 'Deep context';

export function coordsOfFeature(f: Pick<Feature, 'id' | 'teamId' | 'channelId'>): FeatureCoords | undefined {
  return f.teamId && f.channelId ? { teamId: f.teamId, channelId: f.channelId, featureId: f.id } : undefined;
}

/**
 * The results, private to the one who searched: Delete is offered only when `mayDelete` (owners and
 * admins; the service refuses anyone else).
 */
export function searchResults(
  words: string,
  features: readonly Feature[],
  total = features.length,
  mayDelete = true,
): MessageBody {
  const title = md`*Deep context* matching “${inline(words, 100)}” (${total})`;
  if (features.length === 0) {
    return message(title, [
      section(title),
      context(md`Nothing matches. Features reach deep context after execution.`),
    ]);
  }
  const blocks: KnownBlock[] = [section(title)];
  for (const f of features.slice(0, SHOWN_RESULTS)) {
    const coords = coordsOfFeature(f);
    const snippet = f.details ? md`\n${inline(f.details, 200)}` : md``;
    blocks.push(section(md`:books: *${inline(f.heading ?? f.id, 150)}*${snippet}`));
    const read = button('Read', FEATURE_ACTION.deepContextRead, { value: f.id });
    // Delete is the card's own button (confirmed; the service lets only owners and admins).
    const del = coords
      ? featureButtons(coords, { ...f, stage: 'deep context' }, { deletesDeepContext: mayDelete }).filter(
          (b) => b.action_id === FEATURE_ACTION.delete,
        )
      : [];
    blocks.push(actions(undefined, read, ...del));
  }
  if (features.length > SHOWN_RESULTS) {
    blocks.push(context(md`…and ${features.length - SHOWN_RESULTS} more: add words to narrow the search.`));
  }
  return message(title, blocks);
}

/** One deep-context feature, read in full. */
export function deepContextModal(f: FeatureExpanded): ModalView {
  const where = [f.teamName, f.channelName].filter(Boolean).join(' › ');
  const assumptions = f.assumptions.map((a) => {
    const exp = a.experiment;
    const verdict =
      exp?.state === 'done' ? (exp.confirmed ? 'confirmed' : 'not confirmed') : (exp?.state ?? 'idle');
    const details = exp?.details ? md`\n> ${inline(exp.details.replace(/\n+/g, ' '), 500)}` : md``;
    return md`• ${inline(a.heading ?? a.id, 200)} — _${verdict}_${details}`;
  });
  const tasks = f.tasks.map((t) => md`• ${inline(t.heading ?? t.id, 150)} — _${t.state}_`);
  return modal({
    callbackId: VIEW.info,
    title: DEEP_CONTEXT_TITLE,
    blocks: [
      section(md`:books: *${inline(f.heading ?? f.id, 200)}*`),
      context(
        joinMd(
          [
            ...(where ? [md`${where}`] : []),
            ...(f.priority !== undefined ? [md`priority *${f.priority}*`] : []),
            ...(f.focus ? [md`focus _${f.focus}_`] : []),
          ],
          ' · ',
        ),
      ),
      ...(f.details ? [section(inline(f.details, 2900))] : []),
      ...listSection(md`Assumptions`, assumptions),
      ...listSection(md`Tasks`, tasks),
    ],
  });
}

export const searchSubcommand: Subcommand<Services> = {
  name: 'search',
  usage: 'search <words>',
  summary: "search the organization's deep context (finished features)",
  async run(_svc, { text, context, reply }) {
    const planning = planningOf(context);
    const words = text.trim();
    if (words === '') {
      await reply(
        notice(md`What should I look for? \`${COMMAND} search <words>\`, e.g. \`${COMMAND} search login\`.`),
      );
      return;
    }
    if (words.length > LIMITS.searchTerm) {
      await reply(
        notice(
          md`A search has at most ${LIMITS.searchTerm} characters; yours has ${words.length}. Try fewer words.`,
        ),
      );
      return;
    }
    const acting = await planning.acting();
    const [page, mayDelete] = await Promise.all([
      acting.planning.deepContext.search({ searchTerm: words, pageSize: 100 }),
      actsAsOrgAdmin(acting),
    ]);
    await reply(searchResults(words, page.features, page.total ?? page.features.length, mayDelete));
  },
};

export async function deepContextReadAction(svc: Services, args: ActionArgs) {
  const featureId = actionValue(args.action);
  if (!featureId) return;
  await loadModal(
    { ...modalRequest(svc, args, args.body.trigger_id, 'deep context read'), title: DEEP_CONTEXT_TITLE },
    async ({ planning }) => deepContextModal(await planning.deepContext.read(featureId)),
  );
}
