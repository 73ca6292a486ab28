/**
 * "Create task" on a message: the modal opens at once (loading — the trigger id lives 3 s) and is
 * filled after: the linked planning channel or team/channel selects, the heading and details from
 * the message with its permalink.
 */
import { createTaskModal, prefillTask, TASK_TITLE } from '../../blocks/task.js';
import { planningOf } from '../../context/middleware.js';
import { loadModal, modalRequest } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import type { MessageShortcutArgs } from '../router.js';

export function createTaskShortcut(svc: Services) {
  return async (args: MessageShortcutArgs) => {
    const { shortcut, client } = args;
    const planning = planningOf(args.context);
    await loadModal(
      { ...modalRequest(svc, args, shortcut.trigger_id, 'create-task open'), title: TASK_TITLE },
      async ({ planning: service }) => {
        const channel = shortcut.channel.id;
        const messageTs = shortcut.message.ts;
        const [link, permalink] = await Promise.all([
          svc.deps.store.links.get(planning.workspaceId, channel),
          client.chat
            .getPermalink({ channel, message_ts: messageTs })
            .then((r) => r.permalink)
            .catch(() => undefined),
        ]);
        const { heading, details } = prefillTask(shortcut.message.text ?? '', permalink);
        const meta = {
          channel,
          threadTs: shortcut.message.thread_ts ?? messageTs,
          ...(link ? { link: { teamId: link.teamId, channelId: link.channelId } } : {}),
        };
        if (!link) {
          const { teams } = await service.teams.listAll({ pageSize: 100 });
          return createTaskModal({ meta, teams, heading, details });
        }
        const team = await service.teams.read(link.teamId);
        const planningChannel = team.channels.find((c) => c.id === link.channelId);
        return createTaskModal({
          meta,
          linkedTo: `${team.teamName ?? team.id} › ${planningChannel?.channelName ?? link.channelId}`,
          heading,
          details,
        });
      },
    );
  };
}
