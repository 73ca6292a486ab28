/** What other topics use of the grades topic: its routes, the notion search, the privacy line. */
export { GRADES_PRIVACY } from './blocks.js';
export { notionOptions } from './notion-options.js';
export { gradeRoutes } from './routes.js';
