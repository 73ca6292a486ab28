export { digestRoutes } from './routes.js';
