/** What other topics use of the admin topic: its routes and the Home tab's admin button id. */
export { ADMIN_ACTION } from './ids.js';
export { adminRoutes } from './routes.js';
