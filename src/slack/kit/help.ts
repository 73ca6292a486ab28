/** `/plan help`: built from the route tables' subcommands, so it never forgets one. */
import { context, joinMd, md, message, section } from '../../blockkit/index.js';
import type { HelpEntry } from '../bolt/router.js';
import { COMMAND } from './ids.js';
import type { Reply } from './messages.js';

/** The help, optionally preceded by why it is shown (an unknown subcommand). */
export function helpMessage(entries: readonly HelpEntry[], unknown?: string): Reply {
  const lines = entries.map(
    (e) => md`\`${COMMAND} ${e.usage}\` — ${e.summary}${e.adminOnly ? md` _(workspace admins)_` : md``}`,
  );
  const intro =
    unknown === undefined
      ? md`*Team Planning* — what you can do:`
      : md`I don't know \`${COMMAND} ${unknown}\`. Here is what I can do:`;
  return message(intro, [
    section(intro),
    section(joinMd(lines)),
    context(
      md`Shortcuts: *Create task*, *Give feedback*, *Log discovery* and *Log as evidence* on a message (its ⋮ *More actions* menu), *New feature* and *Grade a peer* from the ⚡ menu.`,
    ),
  ]);
}
