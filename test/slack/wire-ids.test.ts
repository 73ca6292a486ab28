/**
 * Wire ids never change once shipped: cards, digests and modals posted before a deploy must keep
 * working after it. Every callback, action, field and block id, every metadata event type and the
 * shape of every value carried in a button or a modal's private_metadata is listed here as it is
 * on the wire; a rename, a removal or an addition fails this test until the list says so on purpose.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdvanceButtonValue } from '../../src/digest/ids.js';
import { DIGEST_ACTIONS, DIGEST_BLOCKS, DIGEST_EVENT_TYPE } from '../../src/digest/index.js';
import { AdminPlace, FormRequest, Target } from '../../src/slack/blocks/admin/common.js';
import { FormMeta } from '../../src/slack/blocks/admin/forms.js';
import { AssumptionMenuValue, FeatureButtonValue, FeatureCoords } from '../../src/slack/blocks/feature.js';
import {
  AssumptionFormMeta,
  AssumptionRef,
  EvidenceMeta,
  FeatureFormMeta,
} from '../../src/slack/blocks/feature-forms.js';
import { FeedbackRef } from '../../src/slack/blocks/feedback.js';
import { LinkMeta } from '../../src/slack/blocks/link.js';
import { TaskCoords, TaskModalMeta } from '../../src/slack/blocks/task.js';
import { DiscoveryMeta, MinuteRef, TaskPress, TasksMore } from '../../src/slack/blocks/task-card.js';
import { FORM_ACTION_IDS } from '../../src/slack/flows/admin/forms.js';
import * as ids from '../../src/slack/ids.js';
import { buildManifest } from '../../src/slack/manifest.js';

/** Every id the app puts on the wire, by kind, as the code declares them today. */
function declaredIds() {
  return {
    command: ids.COMMAND,
    shortcuts: Object.values(ids.SHORTCUT).sort(),
    views: Object.values(ids.VIEW).sort(),
    actions: [
      ...Object.values(ids.ACTION),
      ...Object.values(ids.ADMIN_ACTION),
      ...FORM_ACTION_IDS,
      ...Object.values(DIGEST_ACTIONS),
    ].sort(),
    fields: Object.values(ids.FIELD)
      .map((f) => `${f.block}/${f.action}`)
      .sort(),
    blocks: [
      ids.TASK_CARD_BLOCK_PREFIX,
      ids.TASK_LIST_BLOCK_PREFIX,
      ids.FEATURE_CARD_BLOCK_PREFIX,
      ...Object.values(DIGEST_BLOCKS),
    ].sort(),
    events: [ids.TASK_CARD_EVENT, ids.FEATURE_CARD_EVENT, DIGEST_EVENT_TYPE].sort(),
  };
}

/** Values Slack hands back to the app: in buttons, selects, private_metadata and message metadata. */
const CARRIED = {
  AdminPlace,
  Target,
  FormRequest,
  FormMeta,
  FeatureButtonValue,
  AssumptionMenuValue,
  LinkMeta,
  TaskModalMeta,
  FeatureFormMeta,
  AssumptionFormMeta,
  AssumptionRef,
  EvidenceMeta,
  TaskPress,
  TasksMore,
  DiscoveryMeta,
  MinuteRef,
  FeedbackRef,
  AdvanceButtonValue,
  TaskCoords,
  FeatureCoords,
};

type JsonSchema = {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
};

/** What Slack may send back, in short: keys (`?` when optional), types and allowed values. */
function shape(schema: JsonSchema): unknown {
  if (schema.anyOf) return schema.anyOf.map(shape);
  if (schema.enum) return schema.enum.join('|');
  if (schema.const !== undefined) return `=${String(schema.const)}`;
  if (schema.type === 'object') {
    const required = new Set(schema.required ?? []);
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, value]) => [
        required.has(key) ? key : `${key}?`,
        shape(value),
      ]),
    );
  }
  if (schema.type === 'array' && schema.items) return [shape(schema.items)];
  return schema.type ?? 'any';
}

const carriedShapes = () =>
  Object.fromEntries(
    Object.entries(CARRIED).map(([name, schema]) => [
      name,
      shape(z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema),
    ]),
  );

describe('wire ids', () => {
  it('every declared id is the one already shipped', () => {
    expect(declaredIds()).toEqual(FROZEN_IDS);
  });

  it('the manifest declares the shipped command, shortcuts and events', () => {
    const manifest = buildManifest();
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual([FROZEN_IDS.command]);
    expect(manifest.features.shortcuts.map((s) => s.callback_id).sort()).toEqual(FROZEN_IDS.shortcuts);
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual([
      'app_home_opened',
      'app_uninstalled',
      'tokens_revoked',
      'user_change',
    ]);
  });

  it('every value carried through Slack keeps its shape', () => {
    expect(carriedShapes()).toEqual(FROZEN_VALUES);
  });

  it('the check can fail: a renamed id or a new key is seen', () => {
    const renamed = { ...declaredIds(), views: [...declaredIds().views, 'create_task_v2'].sort() };
    expect(renamed).not.toEqual(FROZEN_IDS);
    const widened = TaskPress.extend({ state: z.string() });
    expect(shape(z.toJSONSchema(widened, { io: 'input' }) as JsonSchema)).not.toEqual(
      FROZEN_VALUES.TaskPress,
    );
  });
});

const FROZEN_IDS = {
  command: '/plan',
  shortcuts: ['create_task', 'give_feedback', 'grade_peer', 'log_discovery', 'log_evidence', 'new_feature'],
  views: [
    'admin',
    'admin_invitation',
    'admin_link_pick',
    'admin_name',
    'admin_person',
    'admin_section',
    'admin_share',
    'assumption',
    'assumption_delete',
    'connect',
    'connect_admin',
    'create_task',
    'discovery',
    'evidence',
    'experiment',
    'feature',
    'feedback',
    'grade',
    'info',
    'link',
    'minute_edit',
    'reply',
    'task_assign',
    'task_details',
    'task_edit',
  ],
  actions: [
    'account_close',
    'admin_add_prospect',
    'admin_back',
    'admin_cancel_subscription',
    'admin_change_plan',
    'admin_checkout',
    'admin_close_account',
    'admin_delete_channel',
    'admin_delete_notion',
    'admin_delete_team',
    'admin_form',
    'admin_form_channelAdd',
    'admin_form_editInvite',
    'admin_form_invite',
    'admin_form_link',
    'admin_form_newChannel',
    'admin_form_newNotion',
    'admin_form_newTeam',
    'admin_form_personTeams',
    'admin_form_renameAccount',
    'admin_form_renameChannel',
    'admin_form_renameNotion',
    'admin_form_renameTeam',
    'admin_form_share',
    'admin_form_teamAdd',
    'admin_form_teamRemove',
    'admin_open',
    'admin_open_place',
    'admin_page_next',
    'admin_page_previous',
    'admin_regenerate',
    'admin_remove_channel_member',
    'admin_revoke_invitation',
    'admin_section',
    'assumption_menu',
    'connect_open',
    'deep_context_delete',
    'deep_context_read',
    'digest_feature_advance',
    'disconnect',
    'feature_add_assumption',
    'feature_add_task',
    'feature_advance',
    'feature_delete',
    'feature_details',
    'feature_edit',
    'feedback_open',
    'minute_delete',
    'minute_edit_open',
    'notify_kinds',
    'quiet_end',
    'quiet_start',
    'reply_open',
    'task_assign_open',
    'task_delete',
    'task_details_open',
    'task_discovery_open',
    'task_edit_open',
    'task_state_back',
    'task_state_forward',
    'tasks_more',
    'team_picked',
  ],
  fields: [
    'admin_search/admin_search_input',
    'assignee/assignee_input',
    'assumption/assumption_input',
    'candidate/candidate_input',
    'channel/channel_input',
    'confirmed/confirmed_input',
    'description/description_input',
    'details/details_input',
    'digest_options/digest_options_input',
    'digest_time/digest_time_input',
    'discovery/discovery_input',
    'discovery_task/discovery_task_input',
    'evidence_feature/evidence_feature_input',
    'experiment_state/experiment_state_input',
    'feature/feature_input',
    'focus/focus_input',
    'grade/grade_input',
    'heading/heading_input',
    'invite_days/invite_days_input',
    'invite_name/invite_name_input',
    'invite_role/invite_role_input',
    'invite_team/invite_team_input',
    'invite_uses/invite_uses_input',
    'issue/issue_input',
    'message/message_input',
    'minute_text/minute_text_input',
    'name/name_input',
    'notion/notion_input',
    'participants/participants_input',
    'peer/peer_input',
    'person/person_input',
    'priority/priority_input',
    'reply/reply_input',
    'share_channel/share_channel_input',
    'share_person/share_person_input',
    'slack_channel/slack_channel_input',
    'task_notions/task_notions_input',
    'team/team_picked',
    'time_zone/time_zone_input',
    'token/token_input',
  ],
  blocks: [
    'digest_advanced',
    'digest_can_advance',
    'digest_experiments',
    'digest_feedback',
    'digest_footer',
    'digest_header',
    'digest_in_review',
    'digest_new',
    'digest_stages',
    'digest_unassigned',
    'digest_unchanged',
    'feature|',
    'task_actions|',
    'task|',
  ],
  events: ['planning_digest', 'planning_feature', 'planning_task'],
};

const FROZEN_VALUES = {
  AdminPlace: {
    s: 'people|invitations|teams|notions|billing|team|channel',
    'p?': 'integer',
    'q?': 'string',
    't?': 'string',
    'c?': 'string',
  },
  Target: {
    id: 'string',
    't?': 'string',
    'c?': 'string',
    'n?': 'string',
  },
  FormRequest: {
    f: 'invite|editInvite|share|renameAccount|newTeam|renameTeam|newChannel|renameChannel|teamAdd|teamRemove|channelAdd|personTeams|newNotion|renameNotion|link',
    'id?': 'string',
    't?': 'string',
    'c?': 'string',
    'n?': 'string',
  },
  FormMeta: {
    f: 'invite|editInvite|share|renameAccount|newTeam|renameTeam|newChannel|renameChannel|teamAdd|teamRemove|channelAdd|personTeams|newNotion|renameNotion|link',
    'id?': 'string',
    't?': 'string',
    'c?': 'string',
    'n?': 'string',
    'v?': 'string',
    'at?': {
      s: 'people|invitations|teams|notions|billing|team|channel',
      'p?': 'integer',
      'q?': 'string',
      't?': 'string',
      'c?': 'string',
    },
  },
  FeatureButtonValue: {
    teamId: 'string',
    channelId: 'string',
    featureId: 'string',
    stage: 'planning|validation|execution|deep context',
  },
  AssumptionMenuValue: {
    op: 'edit|experiment|delete',
    assmId: 'string',
  },
  LinkMeta: {
    ch: 'string',
  },
  TaskModalMeta: {
    channel: 'string',
    'threadTs?': 'string',
    'link?': {
      teamId: 'string',
      channelId: 'string',
    },
    'fromFeature?': 'boolean',
  },
  FeatureFormMeta: [
    {
      mode: '=new',
      'slackChannel?': 'string',
    },
    {
      mode: '=edit',
      coords: {
        teamId: 'string',
        channelId: 'string',
        featureId: 'string',
      },
    },
  ],
  AssumptionFormMeta: {
    coords: {
      teamId: 'string',
      channelId: 'string',
      featureId: 'string',
    },
    'assmId?': 'string',
  },
  AssumptionRef: {
    coords: {
      teamId: 'string',
      channelId: 'string',
      featureId: 'string',
    },
    assmId: 'string',
  },
  EvidenceMeta: {
    teamId: 'string',
    channelId: 'string',
    'featureId?': 'string',
  },
  TaskPress: {
    teamId: 'string',
    channelId: 'string',
    featureId: 'string',
    taskId: 'string',
    s: 'idle|in progress|in review|done',
    a: 'string',
    'to?': 'idle|in progress|in review|done',
    'l?': '=1',
  },
  TasksMore: {
    q: 'string',
    p: 'integer',
  },
  DiscoveryMeta: {
    'c?': {
      teamId: 'string',
      channelId: 'string',
      featureId: 'string',
      taskId: 'string',
    },
    'l?': {
      teamId: 'string',
      channelId: 'string',
    },
  },
  MinuteRef: {
    teamId: 'string',
    channelId: 'string',
    featureId: 'string',
    taskId: 'string',
    k: 'd|f',
    id: 'string',
  },
  FeedbackRef: {
    teamId: 'string',
    channelId: 'string',
    featureId: 'string',
    taskId: 'string',
    feedbackId: 'string',
  },
  AdvanceButtonValue: {
    teamId: 'string',
    channelId: 'string',
    featureId: 'string',
    'stage?': 'planning|validation|execution|deep context',
  },
  TaskCoords: {
    teamId: 'string',
    channelId: 'string',
    featureId: 'string',
    taskId: 'string',
  },
  FeatureCoords: {
    teamId: 'string',
    channelId: 'string',
    featureId: 'string',
  },
};
