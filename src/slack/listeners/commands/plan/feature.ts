/** `/plan feature new`: the New feature form, team and channel defaulting to this channel's link. */
import { md } from '../../../../blockkit/index.js';
import { notice } from '../../../blocks/messages.js';
import { modalRequest } from '../../../context/modal.js';
import { openNewFeatureForm } from '../../../flows/feature-forms.js';
import type { Subcommand } from './subcommand.js';

export const feature: Subcommand = {
  name: 'feature',
  usage: 'feature new',
  summary: 'create a feature (its card is posted in the linked channel)',
  async run(ctx) {
    const { args, command, planning, svc, reply } = ctx;
    if (args.toLowerCase() !== 'new') {
      await reply(notice(md`Did you mean \`/plan feature new\`? To see features, use \`/plan features\`.`));
      return;
    }
    await openNewFeatureForm(
      svc,
      modalRequest(svc, ctx, command.trigger_id, '/plan feature new'),
      planning.workspaceId,
      command.channel_id,
    );
  },
};
