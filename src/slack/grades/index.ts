/** What other topics use of the grades topic: the notion search, the privacy line. */
export { GRADES_PRIVACY } from './blocks.js';
export { notionOptions } from './notion-options.js';
