/** Live cards for tasks and features: posted and remembered, updated in place, pressed once. */
export { type LiveCard, type Press, pressCard, type Shown, sameShown } from './press.js';
export { type CardBody, type CardRef, postCard, retireCards, updateCards } from './registry.js';
