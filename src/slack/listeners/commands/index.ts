/** Binds the slash command. */
import type { App } from '@slack/bolt';
import { ackThenRoute, type CommandArgs } from '../../bolt/router.js';
import { COMMAND } from '../../kit/ids.js';
import type { Services } from '../../kit/services.js';
import { planCommand } from './plan.js';

export function registerCommands(app: App, svc: Services) {
  app.command(
    COMMAND,
    ackThenRoute<CommandArgs>((args) => args.command.command, { [COMMAND]: planCommand(svc) }),
  );
}
