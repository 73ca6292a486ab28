export { installRoutes } from './routes.js';
