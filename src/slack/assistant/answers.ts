/**
 * The assistant's answers without any model, each read with the asking person's own planning
 * account — they never see through the assistant what their account cannot read — and each with
 * the buttons of the existing flows (a task's state, Reply to feedback), which act as those flows do.
 */
import type { KnownBlock } from '@slack/types';
import pLimit from 'p-limit';
import {
  actions,
  channelMention,
  context,
  header,
  inline,
  joinMd,
  type Mrkdwn,
  md,
  message,
  section,
} from '../../blockkit/index.js';
import { TASK_STATES, type TaskState } from '../../planning/index.js';
import {
  type HomeTask,
  linkedPlanning,
  onePerPlanningChannel,
  type Part,
  pendingFeedback,
  waitingBlocks,
} from '../home/index.js';
import type { Acting } from '../kit/identity.js';
import { COMMAND } from '../kit/ids.js';
import type { Reply } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { taskStateButtons } from '../tasks/index.js';
import { PEERS_TITLE, peerBlocks } from './peers.js';

/** Service calls in flight at once for one answer. */
const PER_ANSWER = 4;
/** Tasks shown per state before "…and N more". */
const PER_STATE = 4;

const OPEN_STATES: readonly TaskState[] = TASK_STATES.filter((s) => s !== 'done');
const STATE_TITLE: Record<TaskState, string> = {
  idle: ':white_circle: To do',
  'in progress': ':large_blue_circle: In progress',
  'in review': ':large_orange_circle: In review',
  done: ':large_green_circle: Done',
};

/** What the assistant answers, as the unknown question's answer and the greeting list them. */
export const CAN_DO: readonly Mrkdwn[] = [
  md`*What’s waiting for me?* — your open tasks by state, feedback to answer, peers you could grade, features you authored that can advance`,
  md`*What changed in this channel’s plan this week?* — the channel you are looking at, per feature`,
  md`*Why can’t «feature» advance?* — its stage gate in words, and what would unblock it`,
  md`*Who knows «notion»?* — the linked team ranked on it, as \`${COMMAND} who knows\``,
  md`*Draft tasks from this thread* — paste a message’s link (or ask from a channel: its recent messages), or use the *Draft tasks* shortcut on any message with replies`,
];

/** A question none of the answers matches: what the assistant can do. */
export function canDoReply(): Reply {
  const intro = md`Here is what I can answer — ask in your own words:`;
  const list = joinMd(CAN_DO.map((line) => md`• ${line}`));
  return message(intro, [
    section(intro),
    section(list),
    context(md`\`${COMMAND} help\` lists every command.`),
  ]);
}

const FAILED = { ok: false, problem: 'failed' } as const;

/**
 * *What's waiting for me?* — my open tasks by state, feedback to answer, features I can advance, and
 * peers I could grade (peers.ts: what "peer grades due" can honestly be).
 */
export async function waitingReply(svc: Services, acting: Acting): Promise<Reply> {
  const links = onePerPlanningChannel(await svc.deps.store.links.listByWorkspace(acting.workspaceId));
  if (links.length === 0) {
    const none = md`No channel here is linked to a planning channel yet, so nothing is waiting: a workspace admin can run \`${COMMAND} link\`.`;
    return message(none, [section(none)]);
  }
  const limit = pLimit(PER_ANSWER);
  const call = <T>(fn: () => Promise<T>) => limit(fn);
  const planningRead = linkedPlanning(acting.planning, acting.identity, links, call);
  const waitingRead = planningRead.then(({ tasks }) => pendingFeedback(acting.planning, tasks, call));
  const peersRead = planningRead.then((read) => peerBlocks(svc, acting, read, call));
  const [planning, waiting, peers] = await Promise.allSettled([planningRead, waitingRead, peersRead]);
  // Neither part could be read: the service is down, told in one sentence by the caller.
  if (planning.status === 'rejected') throw planning.reason;
  const tasks = planning.value.tasks.filter((t) => t.state !== 'done');
  const feedback: Part<Awaited<typeof waitingRead>> =
    waiting.status === 'fulfilled' ? { ok: true, value: waiting.value } : FAILED;
  const blocks: KnownBlock[] = [
    ...taskBlocks(tasks),
    ...waitingBlocks({ planning: { ok: true, value: planning.value }, waiting: feedback }),
    ...(peers.status === 'fulfilled'
      ? peers.value
      : [header(PEERS_TITLE), context(md`:warning: The peers you could grade could not be read right now.`)]),
  ];
  if (planning.value.unreadChannels.length > 0) {
    const unread = joinMd(planning.value.unreadChannels.map(channelMention), ', ');
    blocks.push(context(md`:warning: Could not read ${unread} right now.`));
  }
  const summary = md`You have ${String(tasks.length)} open task${tasks.length === 1 ? '' : 's'}${
    feedback.ok ? md` and ${String(feedback.value.length)} feedback to answer` : md``
  }.`;
  return message(summary, [section(summary), ...blocks]);
}

/** My open tasks by state, each with its state buttons (the task card's own). */
function taskBlocks(tasks: readonly HomeTask[]): KnownBlock[] {
  const blocks: KnownBlock[] = [header('My open tasks')];
  if (tasks.length === 0)
    return [...blocks, context(md`No open task in the linked channels is assigned to you.`)];
  for (const state of OPEN_STATES) {
    const mine = tasks.filter((t) => t.state === state);
    if (mine.length === 0) continue;
    blocks.push(section(md`*${STATE_TITLE[state]}* (${String(mine.length)})`));
    for (const task of mine.slice(0, PER_STATE)) {
      blocks.push(
        context(
          md`*${inline(task.heading, 150)}* · ${inline(task.featureHeading, 100)} · ${channelMention(task.slackChannelId)}`,
        ),
      );
      const buttons = taskStateButtons(task);
      if (buttons.length > 0) blocks.push(actions(undefined, ...buttons));
    }
    if (mine.length > PER_STATE) {
      blocks.push(context(md`…and ${String(mine.length - PER_STATE)} more — your Home tab lists them all.`));
    }
  }
  return blocks;
}
