/** The grades topic's routes: grading a peer (command, shortcut, form) and one's own grades. */
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { GRADE_ACTION, GRADE_FIELD, GRADE_SHORTCUT, GRADE_VIEW } from './ids.js';
import { gradesSubcommand } from './my-grades.js';
import { notionOptions } from './notion-options.js';
import { gradePeerAction, gradePeerShortcut, gradeSubcommand, gradeSubmission } from './peer-grade.js';

export const gradeRoutes: TopicRoutes<Services> = {
  topic: 'grades',
  gate: { access: 'member' },
  subcommands: [gradeSubcommand, gradesSubcommand],
  shortcuts: {
    [GRADE_SHORTCUT.gradePeer]: {
      type: 'global',
      name: 'Grade a peer',
      description: "Grade a teammate's notion, anonymously",
      run: gradePeerShortcut,
    },
  },
  actions: { [GRADE_ACTION.gradePeer]: gradePeerAction },
  views: { [GRADE_VIEW.grade]: gradeSubmission },
  options: { [GRADE_FIELD.notion.action]: notionOptions },
};
