import { helpMessage } from '../../../blocks/messages.js';
import type { Subcommand } from './subcommand.js';

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
