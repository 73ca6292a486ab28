/** What other topics use of the assistant: a question typed in an assistant thread is answered here. */
export { answerInAssistantThread } from './answer.js';
