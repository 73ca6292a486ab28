/**
 * What the composition uses of the digest's Slack side: its routes.
 */
export { digestRoutes } from './routes.js';
