/**
 * Assumption options of the evidence form: the chosen (or known) feature's assumptions, each with
 * how much its experiment details can still take.
 */
import type { BlockSuggestion } from '@slack/bolt';
import { assumptionOption, EvidenceMeta } from '../../blocks/feature-forms.js';
import { answerOptions } from '../../context/options.js';
import type { Services } from '../../context/services.js';
import { fieldValue, NO_CHOICE, type StateValues } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseCarried } from '../../round-trip.js';
import type { OptionsArgs } from '../router.js';
import { matches } from './search.js';

export function assumptionOptions(svc: Services) {
  return async (args: OptionsArgs) => {
    const view = (args.body as BlockSuggestion).view;
    const meta = parseCarried(EvidenceMeta, view?.private_metadata);
    const featureId =
      meta?.featureId ?? fieldValue((view?.state?.values ?? {}) as StateValues, FIELD.evidenceFeature);
    if (!meta || !featureId || featureId === NO_CHOICE) {
      await args.ack({ options: [] });
      return;
    }
    await answerOptions(svc, args, 'assumption options', async ({ planning }, call) => {
      const page = await planning.assumptions.list(
        meta.teamId,
        meta.channelId,
        featureId,
        { pageSize: 500 },
        call,
      );
      return page.assumptions.filter((a) => matches(a.heading ?? '', args.body.value)).map(assumptionOption);
    });
  };
}
