/**
 * Picking a team in the link or create-task modal: the channel select is refreshed with that
 * team's channels (views.update with the view's hash, so a newer state is never overwritten).
 */
import { DIGEST_DEFAULTS } from '../../../store/index.js';
import { FeatureFormMeta, featureModal } from '../../blocks/feature-forms.js';
import { DIGEST_CHOICES, LinkMeta, linkModal } from '../../blocks/link.js';
import { createTaskModal, TaskModalMeta } from '../../blocks/task.js';
import { planningOf } from '../../context/middleware.js';
import { showFailure, viewSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { fieldValue, fieldValues, type StateValues, teamChoices } from '../../forms.js';
import { FIELD, VIEW } from '../../ids.js';
import { parseCarried, parseJson } from '../../round-trip.js';
import { type ActionArgs, actionValue } from '../router.js';

export function teamPickedAction(svc: Services) {
  return async ({ body, action, client, context }: ActionArgs) => {
    const view = body.view;
    const teamId = actionValue(action);
    if (!view || !teamId || teamId === 'none') return;
    const planning = planningOf(context);
    const values = view.state.values as StateValues;
    const teams = teamChoices(view.blocks);
    try {
      const { planning: service } = await planning.acting();
      const { channels } = await service.teams.read(teamId);
      const form = { teams, teamId, channels };
      let next: ReturnType<typeof linkModal>;
      if (view.callback_id === VIEW.link) {
        const checks = fieldValues(values, FIELD.digestOptions);
        next = linkModal({
          ...form,
          slackChannelId: parseCarried(LinkMeta, view.private_metadata)?.ch ?? '',
          digestTime: fieldValue(values, FIELD.digestTime) ?? DIGEST_DEFAULTS.digestTime,
          timeZone: fieldValue(values, FIELD.timeZone) ?? DIGEST_DEFAULTS.timeZone,
          weekdaysOnly: checks.includes(DIGEST_CHOICES.weekdaysOnly),
          digestEnabled: checks.includes(DIGEST_CHOICES.enabled),
        });
      } else if (view.callback_id === VIEW.createTask) {
        next = createTaskModal({
          ...form,
          meta: TaskModalMeta.parse(parseJson(view.private_metadata)),
          heading: fieldValue(values, FIELD.heading) ?? '',
          details: fieldValue(values, FIELD.details) ?? '',
          assignee: fieldValue(values, FIELD.assignee),
        });
      } else if (view.callback_id === VIEW.feature) {
        const priority = Number(fieldValue(values, FIELD.priority));
        const focus = fieldValue(values, FIELD.focus);
        next = featureModal({
          ...form,
          meta: FeatureFormMeta.parse(parseJson(view.private_metadata)),
          heading: fieldValue(values, FIELD.heading),
          details: fieldValue(values, FIELD.details),
          ...(Number.isInteger(priority) ? { priority } : {}),
          ...(focus === 'firmitas' || focus === 'utilitas' || focus === 'venustas' ? { focus } : {}),
        });
      } else {
        return;
      }
      await client.views.update({ view_id: view.id, hash: view.hash, view: next });
    } catch (error) {
      await showFailure(svc.deps, viewSurface(client, view.id, view.title.text), error, {
        action: 'team picked',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  };
}
