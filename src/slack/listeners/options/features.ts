/**
 * Feature options of the create-task modal, searchable: the features of the linked planning
 * channel (or of the team/channel picked in the modal), filtered by what the user typed.
 */
import type { BlockSuggestion } from '@slack/bolt';
import { option } from '../../../blockkit/index.js';
import { TaskModalMeta } from '../../blocks/task.js';
import { answerOptions } from '../../context/options.js';
import type { Services } from '../../context/services.js';
import { fieldValue, type StateValues } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseCarried } from '../../round-trip.js';
import type { OptionsArgs } from '../router.js';
import { matches } from './search.js';

export function featureOptions(svc: Services) {
  return async (args: OptionsArgs) => {
    const view = (args.body as BlockSuggestion).view;
    const meta = parseCarried(TaskModalMeta, view?.private_metadata);
    const values = (view?.state?.values ?? {}) as StateValues;
    const teamId = meta ? (meta.link?.teamId ?? fieldValue(values, FIELD.team)) : undefined;
    const channelId = meta ? (meta.link?.channelId ?? fieldValue(values, FIELD.channel)) : undefined;
    if (!teamId || !channelId) {
      await args.ack({ options: [] });
      return;
    }
    await answerOptions(svc, args, 'feature options', async ({ planning }, call) => {
      const page = await planning.features.list(teamId, channelId, { pageSize: 500 }, call);
      return (
        page.features
          // Deep-context features are read-only: no new task can go there.
          .filter((f) => f.stage !== 'deep context' && matches(f.heading ?? '', args.body.value))
          .map((f) => option(f.heading ?? f.id, f.id))
      );
    });
  };
}
