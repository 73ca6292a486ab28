import { context, joinMd, md, message, section } from '../../blockkit/index.js';
import type { Subcommand } from '../listeners/commands/plan/subcommand.js';
import { COMMAND } from './ids.js';
import type { Reply } from './messages.js';

export interface HelpEntry {
  usage: string;
  summary: string;
}

/** `/plan help`, optionally preceded by why it is shown (an unknown subcommand). */
export function helpMessage(entries: HelpEntry[], unknown?: string): Reply {
  const lines = entries.map((e) => md`\`${COMMAND} ${e.usage}\` — ${e.summary}`);
  const intro =
    unknown === undefined
      ? md`*Team Planning* — what you can do:`
      : md`I don't know \`${COMMAND} ${unknown}\`. Here is what I can do:`;
  return message(intro, [
    section(intro),
    section(joinMd(lines)),
    context(
      md`Shortcuts: *Create task*, *Give feedback*, *Log discovery* and *Log as evidence* on a message (⋯ menu), *New feature* and *Grade a peer* from the ⚡ menu.`,
    ),
  ]);
}

/** `/plan help`: built from the registry, so it never forgets a subcommand. */
export function helpSubcommand(all: () => readonly Subcommand[]): Subcommand {
  return {
    name: 'help',
    usage: 'help',
    summary: 'what you can do',
    run: ({ reply }) => reply(helpMessage(helpEntries(all()))),
  };
}

export function helpEntries(all: readonly Subcommand[]) {
  return all.map((s) => ({
    usage: s.usage,
    summary: s.adminOnly ? `${s.summary} _(workspace admins)_` : s.summary,
  }));
}
