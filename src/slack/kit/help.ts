/** `/plan help`: built from the route tables' subcommands, so it never forgets one. */
import { context, joinMd, type Mrkdwn, md, message, section } from '../../blockkit/index.js';
import type { HelpEntry } from '../bolt/router.js';
import { COMMAND } from './ids.js';
import type { Reply } from './messages.js';

/** The `/plan help` entry itself, first in the list. */
export const HELP_ENTRY: HelpEntry = { usage: 'help', summary: 'what you can do', adminOnly: false };

/** One subcommand as the help lists it: how it is typed, and what it does. */
export const helpLine = (e: HelpEntry): Mrkdwn =>
  md`\`${COMMAND} ${e.usage}\` — ${e.summary}${e.adminOnly ? md` _(workspace admins)_` : md``}`;

/** The help, optionally preceded by why it is shown (an unknown subcommand). */
export function helpMessage(entries: readonly HelpEntry[], unknown?: string): Reply {
  const intro =
    unknown === undefined
      ? md`*Team Planning* — what you can do:`
      : md`I don't know \`${COMMAND} ${unknown}\`. Here is what I can do:`;
  return helpUnder(intro, entries);
}

/** The help under an intro of the caller's (a message typed to the app says why it is shown). */
export function helpUnder(intro: Mrkdwn, entries: readonly HelpEntry[]): Reply {
  return message(intro, [
    section(intro),
    section(joinMd(entries.map(helpLine))),
    context(
      md`Shortcuts: *Create task*, *Give feedback*, *Log discovery* and *Log as evidence* on a message (its ⋮ *More actions* menu), *New feature* and *Grade a peer* from the ⚡ menu.`,
    ),
  ]);
}
