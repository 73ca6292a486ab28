/** What other topics use of the account topic: its routes, its buttons, closing provisioned accounts. */
export { closeAccountButton, disconnectButton } from './blocks.js';
export { closeProvisioned } from './disconnect.js';
export { accountRoutes } from './routes.js';
