/**
 * The app as one piece: `startApp` composes it from the environment, `runApp` runs it as a process
 * (what the entries in src/bin/ call). Nothing below the app imports it; only the entries and the
 * playground do.
 */
export { guardProcess, runApp } from './process.js';
export { type Running, startApp } from './start-app.js';
