/**
 * Feature options of the create-task modal, searchable: the features of the linked planning
 * channel (or of the team/channel picked in the modal), filtered by what the user typed.
 */
import type { AllMiddlewareArgs, BlockSuggestion, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { capOptions, option } from '../../blocks/kit.js';
import { TaskModalMeta } from '../../blocks/task.js';
import { parseCarried } from '../../carried.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { fieldValue, type StateValues } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { matches } from './search.js';

type Args = SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs;

export function featureOptions(svc: Services) {
  return async ({ ack, body, context }: Args) => {
    const view = (body as BlockSuggestion).view;
    const meta = parseCarried(TaskModalMeta, view?.private_metadata);
    const values = (view?.state?.values ?? {}) as StateValues;
    const teamId = meta ? (meta.link?.teamId ?? fieldValue(values, FIELD.team)) : undefined;
    const channelId = meta ? (meta.link?.channelId ?? fieldValue(values, FIELD.channel)) : undefined;
    if (!teamId || !channelId) {
      await ack({ options: [] });
      return;
    }
    try {
      const { planning } = await planningOf(context).acting();
      const page = await planning.features.list(teamId, channelId, { pageSize: 500 });
      const found = page.features
        // Deep-context features are read-only: no new task can go there.
        .filter((f) => f.stage !== 'deep context' && matches(f.heading ?? '', body.value))
        .map((f) => option(f.heading ?? f.id, f.id));
      await ack({ options: capOptions(found) });
    } catch (error) {
      svc.deps.logger.warn({ action: 'feature options', err: error }, 'could not list features');
      await ack({ options: [] });
    }
  };
}
