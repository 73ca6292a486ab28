/**
 * What other topics use of the app DM topic: the key of a message a person typed, which the assistant
 * keys its questions with too (one message is answered once, by whichever route takes it).
 */
export { typedMessageKey } from './answer.js';
