/** Notion options of the grading form, searched in the organization with notions.search. */

import type { OptionsArgs } from '../bolt/routes.js';
import { answerOptions } from '../kit/options.js';
import type { Services } from '../kit/services.js';
import { notionOption } from './blocks.js';

export function notionOptions(svc: Services, args: OptionsArgs) {
  return answerOptions(svc, args, 'notion options', async ({ planning }, call) => {
    const term = args.body.value.trim();
    const page = await planning.notions.search(
      { ...(term ? { searchTerm: term } : {}), pageSize: 100 },
      call,
    );
    return page.notions.map(notionOption);
  });
}
