/** What the composition uses of the install topic: the notice of a lapsed install. */
export { lapsedInstallNotice } from './lapsed.js';
