/** What other topics use of the grades topic: the notion search, the privacy line, the Grade button. */
export { GRADES_PRIVACY } from './blocks.js';
export { GRADE_ACTION } from './ids.js';
export { notionOptions } from './notion-options.js';
export { GradePeerValue, gradePeerButton } from './peer-grade.js';
