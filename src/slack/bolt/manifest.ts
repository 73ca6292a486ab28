/**
 * The Slack app manifest, as data. It is the single source of the app's scopes (the OAuth installer
 * asks for exactly these), its command and its shortcuts; `manifest.yml` is its rendering for a
 * placeholder host (a test keeps the two equal) and `npm run manifest` renders it for a deployment.
 */

import { FEATURE_SHORTCUT } from '../features/ids.js';
import { FEEDBACK_SHORTCUT } from '../feedback/ids.js';
import { GRADE_SHORTCUT } from '../grades/ids.js';
import { COMMAND } from '../kit/ids.js';
import { TASK_SHORTCUT } from '../tasks/ids.js';

/** Bot scopes, each for something the app does. */
export const BOT_SCOPES = [
  'commands', // /plan and the shortcuts
  'chat:write', // task cards in threads, DMs about feedback
  'chat:write.public', // task cards in public channels the bot was not invited to
  'im:write', // opening the DM to a task's assignee or a feedback's author
  'users:read', // admin check (is_admin/is_owner), time zone, profile name for provisioning
  // A digest retried after a crash first looks for its own post, so that it never posts twice:
  'channels:history', // reading a public channel's recent messages
  'groups:history', // the same in a private channel the bot was invited to
  'channels:join', // joining a public channel it posted in without joining, to read it
  'files:write', // the Home tab's experience chart, uploaded privately and shown as an image block
] as const;

/**
 * Bot events the app subscribes to: the app's own lifecycle (no scope needed), `user_change`
 * (users:read) so that a deactivated person's account is closed and a changed profile followed, and
 * `app_home_opened` (no scope) to draw the Home tab.
 */
export const BOT_EVENTS = ['app_uninstalled', 'tokens_revoked', 'user_change', 'app_home_opened'] as const;

/** Paths the HTTP receiver serves. */
export const PATHS = {
  events: '/slack/events',
  install: '/slack/install',
  redirect: '/slack/oauth_redirect',
  health: '/healthz',
} as const;

/** Host used in the committed manifest.yml; replaced by `npm run manifest -- --url`. */
export const PLACEHOLDER_URL = 'https://your-app.example.com';

export type ManifestTarget = { url: string } | { socket: true };

/** The manifest for an HTTP deployment at `url`, or for Socket Mode (no request URLs). */
export function buildManifest(target: ManifestTarget = { url: PLACEHOLDER_URL }) {
  const base = 'url' in target ? target.url.replace(/\/+$/, '') : undefined;
  const at = (path: string) => (base ? { request_url: `${base}${path}` } : {});
  return {
    _metadata: { major_version: 1, minor_version: 1 },
    display_information: {
      name: 'Team Planning',
      description: 'Plan features, run tasks and grade notions with the Team Planning Service, from Slack.',
      background_color: '#2c3e50',
    },
    features: {
      bot_user: { display_name: 'Team Planning', always_online: true },
      // The Home tab shows each person's planning; the Messages tab carries the app's DMs.
      app_home: {
        home_tab_enabled: true,
        messages_tab_enabled: true,
        messages_tab_read_only_enabled: true,
      },
      slash_commands: [
        {
          command: COMMAND,
          ...(base ? { url: `${base}${PATHS.events}` } : {}),
          description: 'Team planning: connect, link this channel, grade a peer… (/plan help)',
          usage_hint:
            'help | connect | link | tasks [mine|review|unassigned] | features | feature new | search <words> | grade @user <notion> <1-10> | admin',
          // Mentions then arrive as <@U…|name>, so `/plan grade @ana` names a user unambiguously.
          should_escape: true,
        },
      ],
      shortcuts: [
        {
          name: 'Create task',
          type: 'message' as const,
          callback_id: TASK_SHORTCUT.createTask,
          description: 'Turn this message into a planning task',
        },
        {
          name: 'Give feedback',
          type: 'message' as const,
          callback_id: FEEDBACK_SHORTCUT.giveFeedback,
          description: 'Give feedback on the task of this card',
        },
        {
          name: 'Log discovery',
          type: 'message' as const,
          callback_id: TASK_SHORTCUT.logDiscovery,
          description: 'Log this message as a discovery of a task',
        },
        {
          name: 'Log as evidence',
          type: 'message' as const,
          callback_id: FEATURE_SHORTCUT.logEvidence,
          description: "Add this message to an assumption's experiment",
        },
        {
          name: 'Grade a peer',
          type: 'global' as const,
          callback_id: GRADE_SHORTCUT.gradePeer,
          description: "Grade a teammate's notion, anonymously",
        },
        {
          name: 'New feature',
          type: 'global' as const,
          callback_id: FEATURE_SHORTCUT.newFeature,
          description: 'Plan a new feature in a planning channel',
        },
      ],
    },
    oauth_config: {
      ...(base ? { redirect_urls: [`${base}${PATHS.redirect}`] } : {}),
      scopes: { bot: [...BOT_SCOPES] },
    },
    settings: {
      event_subscriptions: { ...at(PATHS.events), bot_events: [...BOT_EVENTS] },
      interactivity: {
        is_enabled: true,
        ...at(PATHS.events),
        ...(base ? { message_menu_options_url: `${base}${PATHS.events}` } : {}),
      },
      org_deploy_enabled: true,
      socket_mode_enabled: !base,
      token_rotation_enabled: false,
    },
  };
}
