/**
 * `/plan grades`: the person's own experience per notion — their grade and their peers' average and
 * count — read with their own account; never who graded them or when.
 */
import type { Experience } from '../../planning/index.js';
import type { Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import type { Services } from '../kit/services.js';
import { gradesMessage } from './blocks.js';

/** `/plan grades`: the user's own experience per notion, read with their own token. */
export const gradesSubcommand: Subcommand<Services> = {
  name: 'grades',
  usage: 'grades',
  summary: "your experience per notion: your own grades and your peers' average",
  async run(_svc, { context, reply }) {
    const { planning: service } = await planningOf(context).acting();
    const experiences: Experience[] = [];
    for await (const experience of service.experiences.list()) experiences.push(experience);
    await reply(gradesMessage(experiences));
  },
};
