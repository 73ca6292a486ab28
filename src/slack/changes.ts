/**
 * The change funnel (kit/changes/) composed with the topics' cards — how it reads a task and a
 * feature as their cards show them: given to every flow (`svc.changes`, src/slack/app.ts) and used
 * by the watch's Slack side, so both reflect a change the same way — the channel canvases of the plan
 * (src/slack/canvas/) included when given.
 */
import { featureCards } from './features/index.js';
import { type CanvasReflection, type ChangeFunnel, createChangeFunnel } from './kit/changes/index.js';
import type { SlackDeps } from './kit/deps.js';
import { taskCards } from './tasks/index.js';

export function appChangeFunnel(
  deps: Pick<SlackDeps, 'store' | 'logger' | 'config'>,
  canvas?: CanvasReflection,
): ChangeFunnel {
  return createChangeFunnel(
    { ...deps, ...(canvas ? { canvas } : {}) },
    { task: taskCards(deps), feature: featureCards(deps) },
  );
}
