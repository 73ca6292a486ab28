/** What other topics use of the people topic: who knows a notion, as `/plan who knows` answers it. */
export { knowsReply } from './knows.js';
