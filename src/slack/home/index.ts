/** What other topics use of the Home tab: its routes, and refreshing or forgetting a person's tab. */
export { forgetHome, refreshHome } from './publish.js';
export { homeRoutes } from './routes.js';
