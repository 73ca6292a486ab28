/** What other topics use of the admin topic: the Home tab's admin button id. */
export { ADMIN_ACTION } from './ids.js';
