/** What other topics use of the link topic: its routes and the link form for a given channel. */
export { linkModalFor } from './link-form.js';
export { linkRoutes } from './routes.js';
