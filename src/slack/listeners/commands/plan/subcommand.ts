/** The shape of a `/plan` subcommand: one file each, listed in ./index.ts (the registry). */
import type { Context, RespondFn, SlashCommand } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { PlanningContext } from '../../../kit/acting.js';
import type { Reply } from '../../../kit/messages.js';
import type { Services } from '../../../kit/services.js';

export interface SubcommandContext {
  /** What follows the subcommand's name, trimmed. */
  args: string;
  command: SlashCommand;
  client: WebClient;
  respond: RespondFn;
  context: Context;
  planning: PlanningContext;
  svc: Services;
  /** Answers privately (ephemeral, through the response_url). */
  reply(body: Reply): Promise<void>;
}

export interface Subcommand {
  name: string;
  /** How it is typed after `/plan`, e.g. `grade @user <notion> <1-10>`. */
  usage: string;
  summary: string;
  /** Only workspace admins (Slack is_admin/is_owner) may run it; checked before `run`. */
  adminOnly?: boolean;
  run(ctx: SubcommandContext): Promise<void>;
}
