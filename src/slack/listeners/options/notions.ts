/** Notion options of the grading form, searched in the organization with notions.search. */
import { notionOption } from '../../blocks/grade.js';
import { answerOptions } from '../../context/options.js';
import type { Services } from '../../context/services.js';
import type { OptionsArgs } from '../router.js';

export function notionOptions(svc: Services) {
  return (args: OptionsArgs) =>
    answerOptions(svc, args, 'notion options', async ({ planning }, call) => {
      const term = args.body.value.trim();
      const page = await planning.notions.search(
        { ...(term ? { searchTerm: term } : {}), pageSize: 100 },
        call,
      );
      return page.notions.map(notionOption);
    });
}
