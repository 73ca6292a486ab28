/**
 * What the composition uses of the install topic: its routes.
 */
export { installRoutes } from './routes.js';
