/**
 * Every topic's route table, in the order `/plan help` lists their subcommands, and the app's
 * manifest built from them: a command, shortcut or event a topic binds is declared to Slack by the
 * same line.
 */
import { accountRoutes } from './account/index.js';
import { adminRoutes } from './admin/index.js';
import { buildManifest, type ManifestTarget } from './bolt/manifest.js';
import type { EventName, TopicRoutes } from './bolt/routes.js';
import { digestRoutes } from './digest/index.js';
import { featureRoutes } from './features/index.js';
import { feedbackRoutes } from './feedback/index.js';
import { gradeRoutes } from './grades/index.js';
import { homeRoutes } from './home/index.js';
import { installRoutes } from './install/index.js';
import { COMMAND } from './kit/ids.js';
import type { Services } from './kit/services.js';
import { linkRoutes } from './link/index.js';
import { peopleRoutes } from './people/index.js';
import { taskRoutes } from './tasks/index.js';
import { unfurlRoutes } from './unfurl/index.js';
import { workflowRoutes } from './workflows/index.js';

export const TOPICS: readonly TopicRoutes<Services>[] = [
  accountRoutes,
  gradeRoutes,
  peopleRoutes,
  linkRoutes,
  digestRoutes,
  taskRoutes,
  feedbackRoutes,
  featureRoutes,
  homeRoutes,
  adminRoutes,
  installRoutes,
  workflowRoutes,
  unfurlRoutes,
];

/** The Events API subscriptions the topics bind. */
export const APP_EVENTS: readonly EventName[] = TOPICS.flatMap(
  (t) => Object.keys(t.events ?? {}) as EventName[],
);

/** The manifest for an HTTP deployment at `url`, or for Socket Mode (link previews with `webLinks`). */
export function appManifest(target?: ManifestTarget) {
  const shortcuts = TOPICS.flatMap((t) =>
    Object.entries(t.shortcuts ?? {}).map(([callbackId, s]) => ({
      callbackId,
      name: s.name,
      type: s.type,
      description: s.description,
    })),
  );
  return buildManifest(
    {
      command: COMMAND,
      // Slack lists message shortcuts in the message's menu and global ones in the ⚡ menu.
      shortcuts: [
        ...shortcuts.filter((s) => s.type === 'message'),
        ...shortcuts.filter((s) => s.type === 'global'),
      ],
      events: APP_EVENTS,
      steps: Object.assign({}, ...TOPICS.map((t) => t.steps ?? {})),
    },
    target,
  );
}
