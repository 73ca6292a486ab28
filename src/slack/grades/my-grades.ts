import type { Experience } from '../../planning/index.js';
import type { Subcommand } from '../listeners/commands/plan/subcommand.js';
import { gradesMessage } from './blocks.js';

/** `/plan grades`: the user's own experience per notion, read with their own token. */
export const grades: Subcommand = {
  name: 'grades',
  usage: 'grades',
  summary: "your experience per notion: your own grades and your peers' average",
  async run({ planning, reply }) {
    const { planning: service } = await planning.acting();
    const experiences: Experience[] = [];
    for await (const experience of service.experiences.list()) experiences.push(experience);
    await reply(gradesMessage(experiences));
  },
};
