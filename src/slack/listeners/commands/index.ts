/** Binds the slash command. */
import type { App } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { COMMAND } from '../../ids.js';
import { ackThenRoute, type CommandArgs } from '../router.js';
import { planCommand } from './plan.js';

export function registerCommands(app: App, svc: Services) {
  app.command(
    COMMAND,
    ackThenRoute<CommandArgs>((args) => args.command.command, { [COMMAND]: planCommand(svc) }),
  );
}
