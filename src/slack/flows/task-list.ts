/**
 * `/plan tasks [mine | review | unassigned | <words>]`: the tasks of the Slack channel's linked
 * planning channel (or, for `mine`, of every planning channel linked in the workspace), read with the
 * user's own client, filtered, and shown a page at a time with each task's buttons.
 */
import { md } from '../../blockkit/index.js';
import { notice, type Reply } from '../blocks/messages.js';
import { parseTaskFilter, type TaskFilter, type TaskView, tasksListMessage } from '../blocks/task-card.js';
import type { SlackDeps } from '../context/deps.js';
import type { Acting } from '../context/identity.js';
import { COMMAND } from '../ids.js';
import { matches } from '../listeners/options/search.js';
import { slackIdsOf } from './tasks.js';

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
  const people = await slackIdsOf(
    deps,
    acting.workspaceId,
    kept.map((t) => t.assigneeUserId),
  );
  const shown = kept.map((t) => {
    const slackId = t.assigneeUserId ? people.get(t.assigneeUserId) : undefined;
    return slackId ? { ...t, assigneeSlackId: slackId } : t;
  });
  return tasksListMessage(shown, filter, page, query);
}
