/**
 * Log discovery's submission (from a card's button or the message shortcut): tasks.discoveryCreate
 * once per view, every card of the task updated (its counts), and a confirmation in the thread of
 * the task's card.
 */
import { z } from 'zod';
import { md } from '../../../blockkit/index.js';
import { TaskCoords } from '../../blocks/task.js';
import {
  DISCOVERY_TITLE,
  DiscoveryMeta,
  discoveryLogged,
  discoveryModal,
  parseTaskOptionValue,
} from '../../blocks/task-card.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { refreshTaskCards } from '../../flows/tasks.js';
import { fieldLabel, fieldValue, minuteText, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const DiscoveryForm = z.object({
  meta: DiscoveryMeta,
  coords: TaskCoords,
  picked: z.object({ value: z.string(), label: z.string() }).optional(),
  text: minuteText('discovery'),
});
type DiscoveryForm = z.infer<typeof DiscoveryForm>;

function parse(values: StateValues, privateMetadata: string) {
  const meta = DiscoveryMeta.safeParse(parseJson(privateMetadata));
  const pickedValue = fieldValue(values, FIELD.discoveryTask);
  const picked = pickedValue ? parseTaskOptionValue(pickedValue) : undefined;
  const coords = meta.success
    ? (meta.data.c ?? (meta.data.l && picked ? { ...meta.data.l, ...picked } : undefined))
    : undefined;
  return validateForm(
    DiscoveryForm,
    {
      meta: meta.success ? meta.data : undefined,
      coords,
      picked: pickedValue
        ? { value: pickedValue, label: fieldLabel(values, FIELD.discoveryTask) ?? pickedValue }
        : undefined,
      text: fieldValue(values, FIELD.discovery),
    },
    values,
    { meta: FIELD.discovery, coords: FIELD.discoveryTask, text: FIELD.discovery },
  );
}

export function discoverySubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<DiscoveryForm>(svc, args, {
      action: 'discovery',
      title: DISCOVERY_TITLE,
      working: 'Logging the discovery…',
      parse: (values, meta) => {
        const parsed = parse(values, meta);
        if (parsed.ok || !parsed.errors[FIELD.discoveryTask.block]) return parsed;
        return { ok: false, errors: { ...parsed.errors, [FIELD.discoveryTask.block]: 'Choose a task.' } };
      },
      retry: (data, problem) =>
        discoveryModal({
          meta: data.meta,
          text: data.text,
          ...(data.picked ? { picked: data.picked } : {}),
          problem,
        }),
      // A discovery is created, not set: a retried submission must not log it twice.
      run: async ({ coords: c, text }) => {
        const planning = planningOf(args.context);
        const acting = await planning.acting();
        await acting.planning.tasks.discoveryCreate(c.teamId, c.channelId, c.featureId, c.taskId, {
          details: text,
        });
        // Logged: the cards and the thread's confirmation are best effort.
        const after = await refreshTaskCards(svc.deps, args.client, acting, c);
        const thread = await cardThread(svc, planning.workspaceId, c.taskId);
        let where = md``;
        if (thread) {
          try {
            await args.client.chat.postMessage({
              channel: thread.channel,
              thread_ts: thread.ts,
              ...discoveryLogged(planning.slackUserId, after?.heading ?? 'the task', text),
              unfurl_links: false,
            });
            where = md` It is confirmed in the task's thread.`;
          } catch (error) {
            svc.deps.logger.warn(
              { action: 'discovery confirm', err: error },
              'could not confirm in the thread',
            );
          }
        }
        return {
          text: md`:white_check_mark: Discovery logged on *${after?.heading ?? 'the task'}*.${where}`,
        };
      },
    });
}

/** Where the task's card lives: the thread it was created from, else its first posted card. */
async function cardThread(svc: Services, workspaceId: string, taskId: string) {
  const origin = await svc.deps.store.taskOrigins.get(workspaceId, taskId);
  if (origin) return { channel: origin.slackChannelId, ts: origin.threadTs };
  const [card] = await svc.deps.store.cards.list(workspaceId, 'task', taskId);
  return card ? { channel: card.slackChannelId, ts: card.messageTs } : undefined;
}
