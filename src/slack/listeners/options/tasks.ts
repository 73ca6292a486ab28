/**
 * Task options of the Log discovery modal, searchable: the tasks of the linked planning channel
 * (features in deep context are read-only, so left out), filtered by what the user typed.
 */
import type { BlockSuggestion } from '@slack/bolt';
import { option } from '../../../blockkit/index.js';
import { DiscoveryMeta, taskOptionValue } from '../../blocks/task-card.js';
import { answerOptions } from '../../context/options.js';
import type { Services } from '../../context/services.js';
import { parseCarried } from '../../round-trip.js';
import type { OptionsArgs } from '../router.js';
import { matches } from './search.js';

export function taskOptions(svc: Services) {
  return async (args: OptionsArgs) => {
    const link = parseCarried(DiscoveryMeta, (args.body as BlockSuggestion).view?.private_metadata)?.l;
    if (!link) {
      await args.ack({ options: [] });
      return;
    }
    await answerOptions(svc, args, 'task options', async ({ planning }, call) => {
      const page = await planning.features.list(link.teamId, link.channelId, { pageSize: 500 }, call);
      return page.features
        .filter((f) => f.stage !== 'deep context')
        .flatMap((f) =>
          f.tasks
            .filter((t) => matches(`${t.heading ?? ''} ${f.heading ?? ''}`, args.body.value))
            .map((t) => option(`${t.heading ?? t.id} · ${f.heading ?? f.id}`, taskOptionValue(f.id, t.id))),
        );
    });
  };
}
