/** Feature options of the evidence form: the planning channel's features that can still change. */
import type { BlockSuggestion } from '@slack/bolt';
import { option } from '../../../blockkit/index.js';
import { EvidenceMeta } from '../../blocks/feature-forms.js';
import { answerOptions } from '../../context/options.js';
import type { Services } from '../../context/services.js';
import { parseCarried } from '../../round-trip.js';
import type { OptionsArgs } from '../router.js';
import { matches } from './search.js';

export function evidenceFeatureOptions(svc: Services) {
  return async (args: OptionsArgs) => {
    const meta = parseCarried(EvidenceMeta, (args.body as BlockSuggestion).view?.private_metadata);
    if (!meta) {
      await args.ack({ options: [] });
      return;
    }
    await answerOptions(svc, args, 'evidence feature options', async ({ planning }, call) => {
      const page = await planning.features.list(meta.teamId, meta.channelId, { pageSize: 500 }, call);
      return page.features
        .filter((f) => f.stage !== 'deep context' && matches(f.heading ?? '', args.body.value))
        .map((f) => option(f.heading ?? f.id, f.id));
    });
  };
}
