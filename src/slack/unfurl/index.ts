/** What other modules use of the unfurl topic (link previews as Work Objects): its routes. */
export { MAX_LINKS, unfurlRoutes } from './routes.js';
