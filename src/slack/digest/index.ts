/**
 * What the admin modal's links section uses of the digest's Slack side: the settings changed and
 * shown as `/plan digest` changes and shows them.
 */
export { digestLastLine, digestStateLines } from './blocks.js';
export { changeDigest, type DigestChange, digestSchedule, type LinkSchedule } from './settings.js';
