/**
 * `/plan tasks [mine | review | unassigned | <words>]`: a page of the linked channel's tasks (or the
 * person's own everywhere), each with its card's state buttons, Assign… and Details; More pages on.
 */
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import {
  actions,
  button,
  context,
  header,
  inline,
  md,
  message,
  plural,
  section,
  truncate,
} from '../../blockkit/index.js';
import { LIMITS } from '../../planning/models.js';
import type { Subcommand } from '../bolt/routes.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import type { SlackDeps } from '../kit/deps.js';
import type { Acting } from '../kit/identity.js';
import { COMMAND } from '../kit/ids.js';
import { notice, type Reply } from '../kit/messages.js';
import { matches } from '../kit/options.js';
import { peopleOf, profileButton } from '../kit/people.js';
import { parseCarried, toWire, wireValue } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { respondSurface, showFailure } from '../kit/surfaces.js';
import { pressValue, type TaskView, taskFacts, taskStateButtons } from './card.js';
import { TASK_ACTION, TASK_LIST_BLOCK_PREFIX } from './ids.js';

// ---------------------------------------------------------------------------------------------
// `/plan tasks`
// ---------------------------------------------------------------------------------------------

/** Which tasks `/plan tasks` lists. */
export type TaskFilter =
  | { kind: 'all' | 'mine' | 'review' | 'unassigned' }
  | { kind: 'words'; words: string };

/** `mine`, `review`, `unassigned`, other words (searched in headings), or nothing (all). */
export function parseTaskFilter(args: string): TaskFilter {
  const words = args.trim().replace(/\s+/g, ' ');
  const lower = words.toLowerCase();
  if (lower === '') return { kind: 'all' };
  if (lower === 'mine' || lower === 'review' || lower === 'unassigned') return { kind: lower };
  return { kind: 'words', words: truncate(words, 100) };
}

/** Tasks per page of `/plan tasks`: two blocks each, well under Slack's 50 per message. */
export const TASKS_PAGE_SIZE = 10;

/** What the More button carries to show the next page, as code reads it (see {@link TasksMore}). */
export interface TasksMore {
  /** What was asked for: `mine`, words… (the `/plan tasks` arguments). */
  query: string;
  page: number;
}

/** What the More button carries to show the next page; on the wire `q` the query, `p` the page. */
export const TasksMore = wireValue(
  z.object({ q: z.string().max(100), p: z.number().int().min(1) }),
  (w): TasksMore => ({ query: w.q, page: w.p }),
  (more) => ({ q: more.query, p: more.page }),
);

function filterTitle(filter: TaskFilter): string {
  switch (filter.kind) {
    case 'all':
      return 'Tasks';
    case 'mine':
      return 'Your tasks';
    case 'review':
      return 'Tasks in review';
    case 'unassigned':
      return 'Unassigned tasks';
    case 'words':
      return `Tasks matching “${filter.words}”`;
  }
}

/** A page of tasks, each with its state buttons, Assign… and Details; More when there are more. */
export function tasksListMessage(
  tasks: readonly TaskView[],
  filter: TaskFilter,
  page: number,
  query: string,
): ReturnType<typeof message> {
  const title = filterTitle(filter);
  if (tasks.length === 0) {
    const none = md`*${title}*: none.`;
    return message(none, [section(none)]);
  }
  const pages = Math.ceil(tasks.length / TASKS_PAGE_SIZE);
  const current = Math.min(Math.max(1, page), pages);
  const shown = tasks.slice((current - 1) * TASKS_PAGE_SIZE, current * TASKS_PAGE_SIZE);
  const blocks: KnownBlock[] = [header(`${title} (${tasks.length})`)];
  shown.forEach((task, i) => {
    const feature = task.featureHeading ? md` · ${inline(task.featureHeading, 80)}` : md``;
    const value = pressValue(task, { list: true });
    blocks.push(
      section(md`*${inline(task.heading, LIMITS.heading)}*\n${taskFacts(task)}${feature}`),
      actions(
        `${TASK_LIST_BLOCK_PREFIX}${i}`,
        ...taskStateButtons(task, { list: true }),
        button('Assign…', TASK_ACTION.assignOpen, { value }),
        button('Details', TASK_ACTION.detailsOpen, { value }),
        ...profileButton(task.assigneeSlackId),
      ),
    );
  });
  if (current < pages) {
    const more: TasksMore = { query, page: current + 1 };
    blocks.push(
      context(md`Page ${current} of ${pages}.`),
      actions(undefined, button('More', TASK_ACTION.more, { value: toWire(TasksMore, more) })),
    );
  }
  return message(md`${title}: ${plural(tasks.length, 'task')}`, blocks);
}

/** Tasks of one planning channel, across its features (deep-context ones included: they are read). */
async function channelTasks(acting: Acting, teamId: string, channelId: string): Promise<TaskView[]> {
  const found: TaskView[] = [];
  for await (const feature of acting.planning.features.list(teamId, channelId, { pageSize: 500 })) {
    for (const task of feature.tasks) {
      found.push({
        coords: { teamId, channelId, featureId: feature.id, taskId: task.id },
        heading: task.heading ?? 'Untitled task',
        state: task.state,
        ...(task.assigneeUserId ? { assigneeUserId: task.assigneeUserId } : {}),
        ...(feature.heading ? { featureHeading: feature.heading } : {}),
      });
    }
  }
  return found;
}

function keep(filter: TaskFilter, me: string) {
  return (t: TaskView) => {
    switch (filter.kind) {
      case 'all':
        return true;
      case 'mine':
        return t.assigneeUserId === me;
      case 'review':
        return t.state === 'in review';
      case 'unassigned':
        return !t.assigneeUserId;
      case 'words':
        return matches(t.heading, filter.words);
    }
  };
}

/** The page `page` of the tasks `query` names, as seen from the Slack channel `slackChannelId`. */
export async function tasksPage(
  deps: Pick<SlackDeps, 'store'>,
  acting: Acting,
  slackChannelId: string,
  query: string,
  page: number,
): Promise<Reply> {
  const filter = parseTaskFilter(query);
  const links =
    filter.kind === 'mine'
      ? await deps.store.links.listByWorkspace(acting.workspaceId)
      : [await deps.store.links.get(acting.workspaceId, slackChannelId)].filter((l) => l !== undefined);
  if (links.length === 0) {
    return notice(
      md`This channel is not linked to a planning channel yet: a workspace admin can run \`${COMMAND} link\`. \`${COMMAND} tasks mine\` lists your tasks in every linked channel.`,
    );
  }
  const seen = new Set<string>();
  const tasks: TaskView[] = [];
  for (const link of links) {
    const key = `${link.teamId}/${link.channelId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    tasks.push(...(await channelTasks(acting, link.teamId, link.channelId)));
  }
  const kept = tasks.filter(keep(filter, acting.identity.planningUserId));
  const people = await peopleOf(
    deps,
    acting.workspaceId,
    kept.map((t) => t.assigneeUserId),
  );
  const shown = kept.map((t) => {
    const slackId = people.slackUserOf(t.assigneeUserId);
    return slackId ? { ...t, assigneeSlackId: slackId } : t;
  });
  return tasksListMessage(shown, filter, page, query);
}

/** `/plan tasks [mine | review | unassigned | <words>]`: the channel's tasks, each with its buttons. */
export const tasksSubcommand: Subcommand<Services> = {
  name: 'tasks',
  usage: 'tasks [mine | review | unassigned | <words>]',
  summary: "this channel's tasks (or yours everywhere), with their buttons",
  async run(svc, { text, command, context, reply }) {
    const acting = await planningOf(context).acting();
    await reply(await tasksPage(svc.deps, acting, command.channel_id, text, 1));
  },
};

export async function tasksMoreAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const more = parseCarried(TasksMore, actionValue(args.action));
  const channel = args.body.channel?.id;
  if (!more || !channel || !args.respond) return;
  try {
    const page = await tasksPage(svc.deps, await planning.acting(), channel, more.query, more.page);
    await args.respond({ replace_original: true, ...page });
  } catch (error) {
    await showFailure(svc.deps, respondSurface(args.respond), error, {
      action: 'tasks more',
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}
