/**
 * What the composition uses of the digest's Slack side: its routes; and what the admin modal's
 * links section uses: the settings changed and shown as `/plan digest` changes and shows them.
 */
export { digestLastLine, digestStateLines } from './blocks.js';
export { digestRoutes } from './routes.js';
export { changeDigest, type DigestChange, digestSchedule, type LinkSchedule } from './settings.js';
