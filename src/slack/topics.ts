/**
 * Every topic's route table, in the order `/plan help` lists their subcommands, and the app's
 * manifest built from them: a command, shortcut or event a topic binds is declared to Slack by the
 * same line.
 */
import { accountRoutes } from './account/routes.js';
import { adminRoutes } from './admin/routes.js';
import { appDmRoutes } from './app-dm/routes.js';
import { ASSISTANT_PANEL, assistantRoutes } from './assistant/routes.js';
import { buildManifest, type ManifestTarget } from './bolt/manifest.js';
import { compileRoutes } from './bolt/router.js';
import { assistantEvents, type EventName, type TopicRoutes } from './bolt/routes.js';
import { digestRoutes } from './digest/routes.js';
import { featureRoutes } from './features/routes.js';
import { feedbackRoutes } from './feedback/routes.js';
import { gradeRoutes } from './grades/routes.js';
import { homeRoutes } from './home/routes.js';
import { installRoutes } from './install/routes.js';
import { COMMAND } from './kit/ids.js';
import type { Services } from './kit/services.js';
import { linkRoutes } from './link/routes.js';
import { peopleRoutes } from './people/routes.js';
import { taskRoutes } from './tasks/routes.js';
import { unfurlRoutes } from './unfurl/routes.js';
import { workflowRoutes } from './workflows/routes.js';

/** The topics with subcommands, in the order `/plan help` lists them. */
const COMMAND_TOPICS: readonly TopicRoutes<Services>[] = [
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

/** Every topic: a message typed to the app in its DM is answered with the others' subcommands. */
export const TOPICS: readonly TopicRoutes<Services>[] = [
  ...COMMAND_TOPICS,
  appDmRoutes(compileRoutes(COMMAND_TOPICS).helpEntries),
  assistantRoutes,
];

/** The Events API subscriptions the topics bind. */
export const APP_EVENTS: readonly EventName[] = TOPICS.flatMap((t) => [
  ...(Object.keys(t.events ?? {}) as EventName[]),
  ...assistantEvents(t.assistant as Parameters<typeof assistantEvents>[0]),
]);

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
      assistant: ASSISTANT_PANEL,
      steps: Object.assign({}, ...TOPICS.map((t) => t.steps ?? {})),
    },
    target,
  );
}
