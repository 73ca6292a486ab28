/** `/plan search <words>`: the organization's deep context, each result readable and (for owners and admins) deletable. */
import { md } from '../../../../blockkit/index.js';
import { searchResults } from '../../../blocks/deep-context.js';
import { notice } from '../../../blocks/messages.js';
import { COMMAND } from '../../../ids.js';
import type { Subcommand } from './subcommand.js';

export const search: Subcommand = {
  name: 'search',
  usage: 'search <words>',
  summary: "search the organization's deep context (finished features)",
  async run({ args, planning, reply }) {
    const words = args.trim();
    if (words === '') {
      await reply(
        notice(md`What should I look for? \`${COMMAND} search <words>\`, e.g. \`${COMMAND} search login\`.`),
      );
      return;
    }
    const { planning: service } = await planning.acting();
    const page = await service.deepContext.search({ searchTerm: words, pageSize: 100 });
    await reply(searchResults(words, page.features, page.total ?? page.features.length));
  },
};
