/**
 * "Log discovery" on a message: the message (its text and permalink, within a minute's 512
 * characters) becomes a discovery of a task. On a task card or in its thread the task is known;
 * anywhere else in a linked channel the user picks one of its tasks in a searchable select.
 */
import { md } from '../../../blockkit/index.js';
import {
  type CardLike,
  prefillDiscovery,
  type TaskCoords,
  taskCoordsFromMessage,
} from '../../blocks/task.js';
import { DISCOVERY_TITLE, discoveryModal } from '../../blocks/task-card.js';
import { noticeView } from '../../blocks/views.js';
import { planningOf } from '../../context/middleware.js';
import { loadModal, modalRequest } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { COMMAND } from '../../ids.js';
import type { MessageShortcutArgs } from '../router.js';

const NOT_LINKED = md`This channel is not linked to a planning channel, and this message is not in a task card's thread. Use *Log discovery* in a task card's thread, or ask a workspace admin to run \`${COMMAND} link\` here.`;

export function logDiscoveryShortcut(svc: Services) {
  return async (args: MessageShortcutArgs) => {
    const { shortcut, client } = args;
    const planning = planningOf(args.context);
    await loadModal(
      { ...modalRequest(svc, args, shortcut.trigger_id, 'log discovery open'), title: DISCOVERY_TITLE },
      async ({ planning: service }) => {
        const channel = shortcut.channel.id;
        const msg = shortcut.message;
        const permalink = await client.chat
          .getPermalink({ channel, message_ts: msg.ts })
          .then((r) => r.permalink)
          .catch(() => undefined);
        const text = prefillDiscovery(msg.text ?? '', permalink);
        const task = await taskOf(
          svc,
          planning.workspaceId,
          channel,
          msg as CardLike & { ts: string; thread_ts?: string },
        );
        if (task) {
          const read = await service.tasks.read(task.teamId, task.channelId, task.featureId, task.taskId);
          return discoveryModal({ meta: { c: task }, heading: read.heading, text });
        }
        const link = await svc.deps.store.links.get(planning.workspaceId, channel);
        if (!link) return noticeView(DISCOVERY_TITLE, NOT_LINKED);
        return discoveryModal({ meta: { l: { teamId: link.teamId, channelId: link.channelId } }, text });
      },
    );
  };
}

/** The task a message is about: a card itself, or any message of the thread a task was created from. */
async function taskOf(
  svc: Services,
  workspaceId: string,
  channel: string,
  msg: CardLike & { ts: string; thread_ts?: string },
): Promise<TaskCoords | undefined> {
  const card = taskCoordsFromMessage(msg);
  if (card) return card;
  const origin = await svc.deps.store.taskOrigins.findByThread(workspaceId, channel, msg.thread_ts ?? msg.ts);
  return origin
    ? {
        teamId: origin.teamId,
        channelId: origin.channelId,
        featureId: origin.featureId,
        taskId: origin.taskId,
      }
    : undefined;
}
