/** Notion options of the grading form, searched in the organization with notions.search. */
import type { AllMiddlewareArgs, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { notionOption } from '../../blocks/grade.js';
import { capOptions } from '../../blocks/kit.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';

type Args = SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs;

export function notionOptions(svc: Services) {
  return async ({ ack, body, context }: Args) => {
    try {
      const { planning } = await planningOf(context).acting();
      const term = body.value.trim();
      const page = await planning.notions.search({ ...(term ? { searchTerm: term } : {}), pageSize: 100 });
      await ack({ options: capOptions(page.notions.map(notionOption)) });
    } catch (error) {
      svc.deps.logger.warn({ action: 'notion options', err: error }, 'could not search notions');
      await ack({ options: [] });
    }
  };
}
