/**
 * What the composition uses of the install topic: its routes, and the notice of a lapsed install.
 */
export { lapsedInstallNotice, lapsedText } from './lapsed.js';
export { installRoutes } from './routes.js';
