/** What other topics use of the people topic: its routes (its profile button is kit/people.ts's). */
export { peopleRoutes } from './routes.js';
