/**
 * "Create task" on a message: the modal opens at once (loading — the trigger id lives 3 s) and is
 * filled after: the linked planning channel or team/channel selects, the heading and details from
 * the message with its permalink.
 */
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { createTaskModal, prefillTask } from '../../blocks/task.js';
import { loadingView } from '../../blocks/views.js';
import { afterPendingAcks } from '../../context/ack.js';
import { planningOf } from '../../context/middleware.js';
import { showFailure, viewSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';

const TITLE = 'Create task';

export function createTaskShortcut(svc: Services) {
  return async ({
    ack,
    shortcut,
    client,
    context,
  }: SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs) => {
    await ack();
    await afterPendingAcks();
    const opened = await client.views.open({ trigger_id: shortcut.trigger_id, view: loadingView(TITLE) });
    const viewId = opened.view?.id as string;
    const planning = planningOf(context);
    try {
      const { planning: service } = await planning.acting();
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
      let view: ReturnType<typeof createTaskModal>;
      if (link) {
        const team = await service.teams.read(link.teamId);
        const planningChannel = team.channels.find((c) => c.id === link.channelId);
        view = createTaskModal({
          meta,
          linkedTo: `${team.teamName ?? team.id} › ${planningChannel?.channelName ?? link.channelId}`,
          heading,
          details,
        });
      } else {
        const teams = await service.teams.listAll({ pageSize: 100 });
        view = createTaskModal({ meta, teams: teams.teams, heading, details });
      }
      await client.views.update({ view_id: viewId, hash: opened.view?.hash, view });
    } catch (error) {
      await showFailure(svc.deps, viewSurface(client, viewId, TITLE), error, {
        action: 'create-task open',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  };
}
