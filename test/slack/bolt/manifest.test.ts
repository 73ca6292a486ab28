import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderManifest } from '../../../scripts/manifest.js';
import { ASSISTANT_SHORTCUT } from '../../../src/slack/assistant/ids.js';
import { BOT_SCOPES, buildManifest, PLACEHOLDER_URL } from '../../../src/slack/bolt/manifest.js';
import { FEATURE_SHORTCUT } from '../../../src/slack/features/ids.js';
import { FEEDBACK_SHORTCUT } from '../../../src/slack/feedback/ids.js';
import { GRADE_SHORTCUT } from '../../../src/slack/grades/ids.js';
import { COMMAND } from '../../../src/slack/kit/ids.js';
import { TASK_SHORTCUT } from '../../../src/slack/tasks/ids.js';
import { appManifest } from '../../../src/slack/topics.js';
import { WORKFLOW_STEP } from '../../../src/slack/workflows/ids.js';
import { readSharedJson } from '../../helpers/shared.js';

const schema = readSharedJson<object>('slack/manifest.schema.1.0.0.json');

function validator() {
  // strictTypes off: Slack's schema puts minItems beside a missing type in one place it does not
  // concern us (third-party auth providers); every other strict check stays on.
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  // ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
  (formats as unknown as { default: (ajv: Ajv) => void }).default(ajv);
  // Slack's schema carries two documentation-only keywords; declare them rather than disable strict mode.
  ajv.addKeyword({ keyword: '_note' });
  ajv.addKeyword({ keyword: 'regex' });
  return ajv.compile(schema as object);
}

const WEB_LINK_ENV = {
  PLANNING_WEB_FEATURE_URL: 'https://plan.example.org/t/{teamId}/c/{channelId}/f/{featureId}',
  PLANNING_WEB_TASK_URL: 'https://plan.example.org/t/{teamId}/c/{channelId}/f/{featureId}/k/{taskId}',
};

const committed = () => parse(readFileSync(new URL('../../../manifest.yml', import.meta.url), 'utf8'));

describe.skipIf(!schema)('manifest against Slack’s manifest schema', () => {
  it('manifest.yml is valid', () => {
    const validate = validator();
    expect(validate(committed()), JSON.stringify(validate.errors)).toBe(true);
  });

  it('npm run manifest output is valid with link previews (the web app link templates set)', () => {
    const validate = validator();
    expect(validate(parse(renderManifest([], WEB_LINK_ENV))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('npm run manifest output is valid for an HTTP host and for Socket Mode', () => {
    const validate = validator();
    for (const args of [['--url', 'https://planning.example.org/'], ['--socket'], []]) {
      expect(validate(parse(renderManifest(args))), `${args}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('refuses a manifest that breaks the schema (the check can fail)', () => {
    const validate = validator();
    const broken = appManifest();
    broken.features.shortcuts[0]!.name = 'A shortcut name far too long for Slack';
    expect(validate(broken)).toBe(false);
  });
});

describe('manifest content', () => {
  it('manifest.yml is the rendering of the manifest module (one source of truth)', () => {
    expect(committed()).toEqual(appManifest({ url: PLACEHOLDER_URL }));
  });

  it('declares the command, the shortcuts, the scopes and the events', () => {
    const m = appManifest();
    expect(m.features.slash_commands.map((c) => c.command)).toEqual([COMMAND]);
    expect(m.features.shortcuts.map((s) => [s.type, s.callback_id])).toEqual([
      ['message', TASK_SHORTCUT.createTask],
      ['message', TASK_SHORTCUT.logDiscovery],
      ['message', FEEDBACK_SHORTCUT.giveFeedback],
      ['message', FEATURE_SHORTCUT.logEvidence],
      ['message', ASSISTANT_SHORTCUT.draftTasks],
      ['global', GRADE_SHORTCUT.gradePeer],
      ['global', FEATURE_SHORTCUT.newFeature],
    ]);
    expect(m.oauth_config.scopes.bot).toEqual([...BOT_SCOPES]);
    expect(m.settings.event_subscriptions.bot_events).toEqual([
      'user_change',
      // Replies in task card threads (tasks/thread-replies.ts), with the history scopes they need.
      'message.channels',
      'message.groups',
      'app_home_opened',
      'app_uninstalled',
      'tokens_revoked',
      // Messages typed to the app in its DM (app-dm/), with im:history.
      'message.im',
      // The planning assistant's threads in Slack's AI side panel (assistant/).
      'assistant_thread_started',
      'assistant_thread_context_changed',
      'function_executed',
    ]);
    expect(m.features.app_home).toMatchObject({ home_tab_enabled: true, messages_tab_enabled: true });
    expect(m.oauth_config.scopes.bot).toContain('files:write');
    expect(m.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(['channels:history', 'groups:history', 'reactions:write']),
    );
  });

  it('opens the Messages tab for typing because a route answers what is typed there (message.im, im:history)', () => {
    const m = appManifest();
    expect(m.features.app_home.messages_tab_read_only_enabled).toBe(false);
    expect(m.oauth_config.scopes.bot).toContain('im:history');
    expect(m.settings.event_subscriptions.bot_events).toContain('message.im');
    // Without a route for `message.im`, nothing would answer: the tab stays read-only.
    const declared = { command: COMMAND, shortcuts: [], events: ['message' as const], steps: {} };
    expect(buildManifest(declared).features.app_home.messages_tab_read_only_enabled).toBe(true);
  });

  it('declares the Workflow Builder steps, run by the app itself', () => {
    const m = appManifest();
    expect(Object.keys(m.functions ?? {}).sort()).toEqual(Object.values(WORKFLOW_STEP).sort());
    expect(m.settings).toMatchObject({ function_runtime: 'remote', org_deploy_enabled: true });
    const createTask = m.functions?.[WORKFLOW_STEP.createTask];
    expect(createTask?.input_parameters).toMatchObject({
      channel: { type: 'slack#/types/channel_id', is_required: true },
      planning_team_id: { type: 'string', is_required: false },
      planning_channel_id: { type: 'string', is_required: false },
      assignee: { type: 'slack#/types/user_id', is_required: false },
      act_as: { type: 'slack#/types/user_id', is_required: true },
    });
    expect(Object.keys(createTask?.output_parameters ?? {})).toEqual(['task_id', 'card_permalink']);
  });

  it('declares link previews only with the web app link templates: unfurl domain, links scopes, link events', () => {
    const plain = appManifest();
    expect(plain.features).not.toHaveProperty('unfurl_domains');
    expect(plain.oauth_config.scopes.bot).not.toContain('links:read');
    expect(plain.settings.event_subscriptions.bot_events).not.toContain('link_shared');

    const m = parse(renderManifest(['--url', 'https://host.example/'], WEB_LINK_ENV));
    expect(m.features.unfurl_domains).toEqual(['plan.example.org']);
    expect(m.oauth_config.scopes.bot).toEqual([...BOT_SCOPES, 'links:read', 'links:write']);
    expect(m.settings.event_subscriptions.bot_events).toEqual(
      expect.arrayContaining(['link_shared', 'entity_details_requested']),
    );
    expect(() => renderManifest([], { PLANNING_WEB_TASK_URL: 'https://plan.example.org/{taskId}' })).toThrow(
      /PLANNING_WEB_TASK_URL must contain/,
    );
  });

  it('fills every request URL for --url, and none for --socket', () => {
    const http = parse(renderManifest(['--url', 'https://host.example/']));
    expect(http.settings.event_subscriptions.request_url).toBe('https://host.example/slack/events');
    expect(http.settings.interactivity.request_url).toBe('https://host.example/slack/events');
    expect(http.settings.interactivity.message_menu_options_url).toBe('https://host.example/slack/events');
    expect(http.features.slash_commands[0].url).toBe('https://host.example/slack/events');
    expect(http.oauth_config.redirect_urls).toEqual(['https://host.example/slack/oauth_redirect']);
    expect(http.settings.socket_mode_enabled).toBe(false);

    const socket = parse(renderManifest(['--socket']));
    expect(socket.settings.socket_mode_enabled).toBe(true);
    expect(JSON.stringify(socket)).not.toContain('https://');
  });

  it('turns token rotation on only when asked (--token-rotation), and deploys org-wide in Grid', () => {
    expect(parse(renderManifest(['--url', 'https://host.example/'])).settings).toMatchObject({
      token_rotation_enabled: false,
      org_deploy_enabled: true,
    });
    const rotating = parse(renderManifest(['--url', 'https://host.example/', '--token-rotation']));
    expect(rotating.settings.token_rotation_enabled).toBe(true);
  });

  it('refuses a bad --url or conflicting flags with a clear message', () => {
    expect(() => renderManifest(['--url', 'http://insecure.example'])).toThrow(/https:\/\//);
    expect(() => renderManifest(['--url', 'not a url'])).toThrow(/--url must be/);
    expect(() => renderManifest(['--url', 'https://a.example', '--socket'])).toThrow(/not both/);
    expect(() => renderManifest(['--bogus'])).toThrow();
  });
});
