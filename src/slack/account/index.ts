/**
 * What other topics and the composition use of the account topic: its buttons on Home, and closing
 * the provisioned accounts of people the app forgot (the minute tick runs it too).
 */
export { closeAccountButton, disconnectButton, followProfileBlocks } from './blocks.js';
export { type ClosureDeps, type ClosureReport, closeForgottenAccounts } from './closures.js';
