/**
 * Picking a team in the link or create-task modal: the channel select is refreshed with that
 * team's channels (views.update with the view's hash, so a newer state is never overwritten).
 */
import { DIGEST_DEFAULTS } from '../store/index.js';
import { type ActionArgs, actionValue } from './bolt/router.js';
import { FeatureFormMeta, featureModal } from './features/feature-form.js';
import { FEATURE_FIELD, FEATURE_VIEW } from './features/ids.js';
import { planningOf } from './kit/acting.js';
import { fieldValue, fieldValues, type StateValues } from './kit/form.js';
import { FIELD } from './kit/ids.js';
import { parseCarried, parseJson } from './kit/round-trip.js';
import type { Services } from './kit/services.js';
import { showFailure, viewSurface } from './kit/surfaces.js';
import { teamChoices } from './kit/team-channel.js';
import { DIGEST_CHOICES, LinkMeta, linkModal } from './link/blocks.js';
import { LINK_FIELD, LINK_VIEW } from './link/ids.js';
import { createTaskModal, TaskModalMeta } from './tasks/create.js';
import { TASK_FIELD, TASK_VIEW } from './tasks/ids.js';

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
      if (view.callback_id === LINK_VIEW.link) {
        const checks = fieldValues(values, LINK_FIELD.digestOptions);
        next = linkModal({
          ...form,
          slackChannelId: parseCarried(LinkMeta, view.private_metadata)?.ch ?? '',
          digestTime: fieldValue(values, LINK_FIELD.digestTime) ?? DIGEST_DEFAULTS.digestTime,
          timeZone: fieldValue(values, LINK_FIELD.timeZone) ?? DIGEST_DEFAULTS.timeZone,
          weekdaysOnly: checks.includes(DIGEST_CHOICES.weekdaysOnly),
          digestEnabled: checks.includes(DIGEST_CHOICES.enabled),
        });
      } else if (view.callback_id === TASK_VIEW.create) {
        next = createTaskModal({
          ...form,
          meta: TaskModalMeta.parse(parseJson(view.private_metadata)),
          heading: fieldValue(values, FIELD.heading) ?? '',
          details: fieldValue(values, FIELD.details) ?? '',
          assignee: fieldValue(values, TASK_FIELD.assignee),
        });
      } else if (view.callback_id === FEATURE_VIEW.feature) {
        const priority = Number(fieldValue(values, FEATURE_FIELD.priority));
        const focus = fieldValue(values, FEATURE_FIELD.focus);
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
