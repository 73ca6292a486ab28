/**
 * The Slack app manifest, as data. It is the single source of the app's scopes (the OAuth installer
 * asks for exactly these), its command and its shortcuts; `manifest.yml` is its rendering for a
 * placeholder host (a test keeps the two equal) and `npm run manifest` renders it for a deployment.
 */

import { type WebLinkTemplates, webLinkHost } from '../../planning/web-links.js';
import type { EventName, Shortcut, StepParameter, WorkflowStep } from './routes.js';

/**
 * Bot scopes, each with why the app needs it — the manifest, the OAuth installer and the install
 * page (install-page.ts) all read this one list.
 */
export const BOT_SCOPE_REASONS = {
  commands: '`/plan` and the shortcuts',
  'chat:write': 'task cards in threads, the daily digest, DMs about feedback and grades',
  'chat:write.public': 'task cards and digests in public channels the app was not invited to',
  'im:write': 'opening the DM to a task’s assignee or a feedback’s author',
  'users:read':
    'who may do what (workspace admins and owners, guests), each person’s time zone, the profile name of a provisioned account',
  // A digest retried after a crash first looks for its own post, so that it never posts twice; and
  // replies in task card threads become discoveries where a link turned that on (`message.*` events):
  'channels:history':
    'a retried digest looks for its own earlier post in a public channel, so it never posts twice; replies in task card threads are recorded as discoveries where an admin turned that on for the channel',
  'groups:history': 'the same in a private channel the app was invited to',
  // The Messages tab is open (a person may type to the app): `message.im` needs this scope.
  'im:history':
    'messages a person types to the app in its DM, each answered with what the app can do, and the questions asked in its assistant threads',
  // Slack's AI side panel: suggested prompts, a status while answering, a title per thread.
  'assistant:write':
    'the planning assistant in Slack’s side panel: its suggested prompts, its status while it reads your plan, each thread’s title',
  'channels:join': 'joining a public channel it posted in without joining, to look there',
  // conversations.members: the assistant reads a channel to draft tasks only for one of its members.
  'channels:read':
    'checking that you are a member of a public channel before the planning assistant reads it to draft tasks for you',
  'groups:read': 'the same for a private channel the app was invited to',
  'files:write': 'the Home tab’s experience chart, uploaded privately and shown as an image',
  'reactions:write': 'a :memo: reaction on a thread reply, saying it was recorded as a discovery',
  'canvases:write':
    'the plan kept in a linked channel’s canvas, where an admin turned that on for the channel: made, edited after each change, ended or deleted when turned off',
  // canvases.sections.lookup needs it: one feature's section is found to replace it alone.
  'canvases:read':
    'finding the section of the one feature that changed in the plan’s canvas, to edit it alone',
} as const;

export const BOT_SCOPES = Object.keys(BOT_SCOPE_REASONS) as readonly (keyof typeof BOT_SCOPE_REASONS)[];

/**
 * The scopes of link previews (Work Objects), asked for only by a deployment that set the web app's
 * link templates (PLANNING_WEB_FEATURE_URL / PLANNING_WEB_TASK_URL).
 */
export const LINK_SCOPE_REASONS = {
  'links:read':
    'seeing a link to the planning web app pasted in a conversation (`link_shared`), to preview it',
  'links:write':
    'previewing that link as a task card (a Work Object), read with the account of whoever pasted it',
} as const;

/** The events of link previews, subscribed to only with the link templates set. */
export const LINK_EVENTS = [
  'link_shared',
  'entity_details_requested',
] as const satisfies readonly EventName[];

/**
 * The bot events a route's event stands for: `message` is Slack's `message.channels` (public
 * channels) and `message.groups` (private channels the app was invited to), each with its scope;
 * `message.im` (the app's DM, im:history) is its own name.
 */
const SUBSCRIBED_AS: Partial<Record<EventName, readonly string[]>> = {
  message: ['message.channels', 'message.groups'],
};

/** The manifest's bot events for the events the routes bind. */
export const botEvents = (events: readonly EventName[]): string[] =>
  events.flatMap((e) => SUBSCRIBED_AS[e] ?? [e]);

/** Whether the deployment set any web app link template: then links are previewed. */
export const previewsLinks = (links: WebLinkTemplates | undefined) => Boolean(links?.feature || links?.task);

/** Every bot scope with why, for a deployment with or without link previews. */
export function botScopeReasons(links?: WebLinkTemplates): Readonly<Record<string, string>> {
  return previewsLinks(links) ? { ...BOT_SCOPE_REASONS, ...LINK_SCOPE_REASONS } : BOT_SCOPE_REASONS;
}

/** The bot scopes the OAuth installer asks for and the manifest declares. */
export const botScopes = (links?: WebLinkTemplates) => Object.keys(botScopeReasons(links));

/** Paths the HTTP receiver serves. */
export const PATHS = {
  events: '/slack/events',
  install: '/slack/install',
  redirect: '/slack/oauth_redirect',
  health: '/healthz',
  ready: '/readyz',
  metrics: '/metrics',
} as const;

/** Host used in the committed manifest.yml; replaced by `npm run manifest -- --url`. */
export const PLACEHOLDER_URL = 'https://your-app.example.com';

/**
 * Where the app runs; `tokenRotation` turns Slack's token rotation on (OAuth deployments only: a
 * bot token set in SLACK_BOT_TOKEN would expire in 12 hours with nothing to refresh it; and once on,
 * Slack cannot turn it off for the app).
 */
export type ManifestTarget = ({ url: string } | { socket: true }) & {
  tokenRotation?: boolean;
  /** The web app's link templates: their hosts are unfurled (link previews, see unfurl/). */
  webLinks?: WebLinkTemplates;
};

/** What the route tables declare that the manifest lists. */
export interface Declared {
  command: string;
  /** Message shortcuts first, then global ones, each in the order the topics list them. */
  shortcuts: readonly (Pick<Shortcut<unknown>, 'name' | 'type' | 'description'> & { callbackId: string })[];
  /**
   * Bot events: the app's own lifecycle (no scope needed), `user_change` (users:read) so that a
   * deactivated person's account is closed and a changed profile followed, `app_home_opened` (no
   * scope) to draw the Home tab, `message` (`message.channels`/`message.groups`: the history
   * scopes) for replies in task card threads, `message.im` (im:history) for messages typed to the
   * app in its DM — bound, it opens the Messages tab for typing.
   */
  events: readonly EventName[];
  /** The AI side panel's description and the prompts it suggests before any thread (assistant/). */
  assistant?: { description: string; prompts: readonly { title: string; message: string }[] };
  /** Workflow Builder steps, by callback id. */
  steps: Readonly<
    Record<string, Pick<WorkflowStep<unknown>, 'title' | 'description' | 'inputs' | 'outputs'>>
  >;
}

/** Parameters as the manifest declares them: by name, each with its type, title and description. */
function parameters(declared: Readonly<Record<string, StepParameter>>) {
  return Object.fromEntries(
    Object.entries(declared).map(([name, p]) => [
      name,
      { type: p.type, title: p.title, description: p.description, is_required: p.required === true },
    ]),
  );
}

/** The manifest for an HTTP deployment at `url`, or for Socket Mode (no request URLs). */
export function buildManifest(declared: Declared, target: ManifestTarget = { url: PLACEHOLDER_URL }) {
  const base = 'url' in target ? target.url.replace(/\/+$/, '') : undefined;
  const at = (path: string) => (base ? { request_url: `${base}${path}` } : {});
  const steps = Object.entries(declared.steps);
  const links = previewsLinks(target.webLinks);
  const linkEvents: readonly EventName[] = LINK_EVENTS;
  const events = declared.events.filter((e) => links || !linkEvents.includes(e));
  // A person may type in the Messages tab only when a route answers what they type there.
  const answersDms = events.includes('message.im');
  // The AI side panel, when a route opens its threads (assistant/).
  const assistant = events.includes('assistant_thread_started') ? declared.assistant : undefined;
  const unfurlDomains = [
    ...new Set(Object.values(target.webLinks ?? {}).map((template) => webLinkHost(template))),
  ];
  return {
    _metadata: { major_version: 1, minor_version: 1 },
    display_information: {
      name: 'Team Planning',
      description: 'Plan features, run tasks and grade notions with the Team Planning Service, from Slack.',
      background_color: '#2c3e50',
    },
    features: {
      bot_user: { display_name: 'Team Planning', always_online: true },
      // The Home tab shows each person's planning; the Messages tab carries the app's DMs, and
      // takes what a person types there when a route answers it (`message.im`).
      app_home: {
        home_tab_enabled: true,
        messages_tab_enabled: true,
        messages_tab_read_only_enabled: !answersDms,
      },
      ...(assistant
        ? {
            assistant_view: {
              assistant_description: assistant.description,
              suggested_prompts: assistant.prompts.map((p) => ({ title: p.title, message: p.message })),
            },
          }
        : {}),
      slash_commands: [
        {
          command: declared.command,
          ...(base ? { url: `${base}${PATHS.events}` } : {}),
          description: 'Team planning: connect, link this channel, grade a peer… (/plan help)',
          usage_hint:
            'help | connect | link | tasks [mine|review|unassigned] | features | feature new | search <words> | grade @user <notion> <1-10> | admin',
          // Mentions then arrive as <@U…|name>, so `/plan grade @ana` names a user unambiguously.
          should_escape: true,
        },
      ],
      shortcuts: declared.shortcuts.map((s) => ({
        name: s.name,
        type: s.type,
        callback_id: s.callbackId,
        description: s.description,
      })),
      // Links to the planning web app pasted in Slack are previewed as Work Objects (unfurl/).
      ...(links ? { unfurl_domains: unfurlDomains } : {}),
    },
    // Workflow Builder custom steps, run by this app (`function_runtime: remote`) on `function_executed`.
    ...(steps.length
      ? {
          functions: Object.fromEntries(
            steps.map(([callbackId, step]) => [
              callbackId,
              {
                title: step.title,
                description: step.description,
                input_parameters: parameters(step.inputs),
                output_parameters: parameters(step.outputs),
              },
            ]),
          ),
        }
      : {}),
    oauth_config: {
      ...(base ? { redirect_urls: [`${base}${PATHS.redirect}`] } : {}),
      scopes: { bot: botScopes(target.webLinks) },
    },
    settings: {
      event_subscriptions: {
        ...at(PATHS.events),
        bot_events: [...botEvents(events), ...(steps.length ? ['function_executed'] : [])],
      },
      interactivity: {
        is_enabled: true,
        ...at(PATHS.events),
        ...(base ? { message_menu_options_url: `${base}${PATHS.events}` } : {}),
      },
      // Custom steps appear in Workflow Builder only for an app installed at the org level.
      org_deploy_enabled: true,
      ...(steps.length ? { function_runtime: 'remote' } : {}),
      socket_mode_enabled: !base,
      token_rotation_enabled: target.tokenRotation === true,
    },
  };
}
