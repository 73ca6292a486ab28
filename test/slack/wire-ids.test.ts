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
import { ACCOUNT_ACTION, ACCOUNT_FIELD, ACCOUNT_VIEW } from '../../src/slack/account/ids.js';
import { AdminPlace, FormRequest, Target } from '../../src/slack/admin/common.js';
import { FormMeta } from '../../src/slack/admin/form-common.js';
import { ADMIN_ACTION, ADMIN_FIELD, ADMIN_VIEW } from '../../src/slack/admin/ids.js';
import { FORM_ACTION_IDS } from '../../src/slack/admin/open-form.js';
import { DraftMeta } from '../../src/slack/assistant/draft.js';
import {
  ASSISTANT_ACTION,
  ASSISTANT_SHORTCUT,
  ASSISTANT_VIEW,
  DRAFT_FIELD,
} from '../../src/slack/assistant/ids.js';
import { ProposedTasks } from '../../src/slack/assistant/proposed.js';
import { compileRoutes } from '../../src/slack/bolt/router.js';
import { AssumptionFormMeta } from '../../src/slack/features/assumptions.js';
import {
  AssumptionMenuValue,
  AssumptionRef,
  FeatureButtonValue,
  FeatureCoords,
} from '../../src/slack/features/card.js';
import { EvidenceMeta } from '../../src/slack/features/evidence.js';
import { FeatureFormMeta } from '../../src/slack/features/feature-form.js';
import {
  FEATURE_ACTION,
  FEATURE_CARD_BLOCK_PREFIX,
  FEATURE_CARD_EVENT,
  FEATURE_FIELD,
  FEATURE_LIST_BLOCK_PREFIX,
  FEATURE_SHORTCUT,
  FEATURE_VIEW,
} from '../../src/slack/features/ids.js';
import { FeedbackRef, ReplyMeta } from '../../src/slack/feedback/blocks.js';
import {
  FEEDBACK_ACTION,
  FEEDBACK_FIELD,
  FEEDBACK_SHORTCUT,
  FEEDBACK_VIEW,
} from '../../src/slack/feedback/ids.js';
import { GRADE_ACTION, GRADE_FIELD, GRADE_SHORTCUT, GRADE_VIEW } from '../../src/slack/grades/ids.js';
import { GradePeerValue } from '../../src/slack/grades/index.js';
import { HOME_ACTION } from '../../src/slack/home/ids.js';
import { ACTION, BLOCK, COMMAND, FIELD, VIEW } from '../../src/slack/kit/ids.js';
import { LinkMeta } from '../../src/slack/link/blocks.js';
import { LINK_FIELD, LINK_VIEW } from '../../src/slack/link/ids.js';
import { PEOPLE_ACTION } from '../../src/slack/people/ids.js';
import { KnowsPage } from '../../src/slack/people/knows.js';
import { TaskCoords, TaskPress } from '../../src/slack/tasks/card.js';
import { TaskModalMeta } from '../../src/slack/tasks/create.js';
import { MinuteRef } from '../../src/slack/tasks/details.js';
import { DiscoveryMeta } from '../../src/slack/tasks/discovery.js';
import {
  TASK_ACTION,
  TASK_CARD_BLOCK_PREFIX,
  TASK_CARD_EVENT,
  TASK_FIELD,
  TASK_LIST_BLOCK_PREFIX,
  TASK_SHORTCUT,
  TASK_VIEW,
} from '../../src/slack/tasks/ids.js';
import { TasksMore } from '../../src/slack/tasks/list.js';
import { DeleteConfirmMeta } from '../../src/slack/tasks/state.js';
import { appManifest, TOPICS } from '../../src/slack/topics.js';
import { STEP_PARAM, WORKFLOW_STEP } from '../../src/slack/workflows/ids.js';

const values = (...tables: Record<string, string>[]) => tables.flatMap((t) => Object.values(t)).sort();

/** Every id the app puts on the wire, by kind, as the code declares them today. */
function declaredIds() {
  return {
    command: COMMAND,
    shortcuts: values(TASK_SHORTCUT, FEATURE_SHORTCUT, FEEDBACK_SHORTCUT, GRADE_SHORTCUT, ASSISTANT_SHORTCUT),
    views: values(
      VIEW,
      TASK_VIEW,
      FEATURE_VIEW,
      FEEDBACK_VIEW,
      GRADE_VIEW,
      LINK_VIEW,
      ACCOUNT_VIEW,
      ADMIN_VIEW,
      ASSISTANT_VIEW,
    ),
    actions: [
      ...values(
        ACTION,
        TASK_ACTION,
        FEATURE_ACTION,
        FEEDBACK_ACTION,
        ACCOUNT_ACTION,
        HOME_ACTION,
        ADMIN_ACTION,
        PEOPLE_ACTION,
        ASSISTANT_ACTION,
        GRADE_ACTION,
      ),
      ...FORM_ACTION_IDS,
      ...Object.values(DIGEST_ACTIONS),
    ].sort(),
    fields: [
      FIELD,
      TASK_FIELD,
      FEATURE_FIELD,
      FEEDBACK_FIELD,
      GRADE_FIELD,
      LINK_FIELD,
      ACCOUNT_FIELD,
      ADMIN_FIELD,
      // A drafted task's field is numbered: its first stands for them all.
      { feature: DRAFT_FIELD.feature, task: DRAFT_FIELD.task(0) },
    ]
      .flatMap((t) => Object.values(t))
      .map((f) => `${f.block}/${f.action}`)
      .sort(),
    blocks: [
      TASK_CARD_BLOCK_PREFIX,
      TASK_LIST_BLOCK_PREFIX,
      FEATURE_CARD_BLOCK_PREFIX,
      FEATURE_LIST_BLOCK_PREFIX,
      ...Object.values(DIGEST_BLOCKS),
      ...Object.values(BLOCK),
    ].sort(),
    events: [TASK_CARD_EVENT, FEATURE_CARD_EVENT, DIGEST_EVENT_TYPE].sort(),
    // Workflows built on a step name it and its parameters.
    steps: values(WORKFLOW_STEP),
    stepParameters: values(STEP_PARAM),
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
  ReplyMeta,
  DeleteConfirmMeta,
  AdvanceButtonValue,
  TaskCoords,
  FeatureCoords,
  KnowsPage,
  DraftMeta,
  ProposedTasks,
  GradePeerValue,
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
    const manifest = appManifest();
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual([FROZEN_IDS.command]);
    expect(manifest.features.shortcuts.map((s) => s.callback_id).sort()).toEqual(FROZEN_IDS.shortcuts);
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual([
      'app_home_opened',
      'app_uninstalled',
      'assistant_thread_context_changed',
      'assistant_thread_started',
      'function_executed',
      'message.channels',
      'message.groups',
      'message.im',
      'tokens_revoked',
      'user_change',
    ]);
    expect(Object.keys(manifest.functions ?? {}).sort()).toEqual(FROZEN_IDS.steps);
    const parameters = Object.values(manifest.functions ?? {}).flatMap((f) => [
      ...Object.keys(f.input_parameters),
      ...Object.keys(f.output_parameters),
    ]);
    expect([...new Set(parameters)].sort()).toEqual(FROZEN_IDS.stepParameters);
  });

  it('the router binds exactly the shipped ids: a card or form from before a deploy finds its handler', () => {
    const bound = compileRoutes(TOPICS).boundIds;
    expect([...bound.shortcuts].sort()).toEqual(FROZEN_IDS.shortcuts);
    expect([...bound.steps].sort()).toEqual(FROZEN_IDS.steps);
    // Not bound: a prefix (each admin form's button is `admin_form_<form>`), and an id declared
    // for deep-context deletion that no message carries. Bound besides: the fields that dispatch —
    // the admin sections' search (on Enter), the Assign form's choice and the share form's "how".
    expect([...bound.actions].sort()).toEqual(
      [
        ...FROZEN_IDS.actions.filter((id) => id !== 'admin_form' && id !== 'deep_context_delete'),
        'admin_search_input',
        'candidate_input',
        'share_to_input',
      ].sort(),
    );
    // Modals with nothing to submit: a loading or result view, the admin root, the task's details.
    expect([...bound.views].sort()).toEqual(
      FROZEN_IDS.views.filter((id) => !['info', 'admin', 'task_details'].includes(id)),
    );
    // Modals whose closing the app is told of: each one of the shipped views.
    expect([...bound.closes].sort()).toEqual(['admin_checkout_view']);
    for (const id of bound.closes) expect(FROZEN_IDS.views).toContain(id);
    const fieldActions = FROZEN_IDS.fields.map((f) => f.split('/')[1]);
    for (const id of bound.options) expect(fieldActions).toContain(id);
    expect([...bound.subcommands].sort()).toEqual([
      'admin',
      'connect',
      'digest',
      'disconnect',
      'feature',
      'features',
      'grade',
      'grades',
      'link',
      'search',
      'tasks',
      'unlink',
      'who',
      'whoami',
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
  shortcuts: [
    'create_task',
    'draft_tasks',
    'give_feedback',
    'grade_peer',
    'log_discovery',
    'log_evidence',
    'new_feature',
  ],
  views: [
    'admin',
    'admin_checkout_view',
    'admin_digest_time',
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
    'draft_tasks',
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
    'task_delete_confirm',
    'task_details',
    'task_edit',
  ],
  actions: [
    'account_close',
    'account_follow_profile',
    'admin_add_prospect',
    'admin_back',
    'admin_cancel_subscription',
    'admin_canvas_delete',
    'admin_canvas_off',
    'admin_canvas_on',
    'admin_change_plan',
    'admin_checkout',
    'admin_close_account',
    'admin_delete_channel',
    'admin_delete_notion',
    'admin_delete_team',
    'admin_digest_off',
    'admin_digest_on',
    'admin_digest_weekends_off',
    'admin_digest_weekends_on',
    'admin_form',
    'admin_form_channelAdd',
    'admin_form_digestTime',
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
    'admin_thread_discoveries_off',
    'admin_thread_discoveries_on',
    'admin_unlink',
    'admin_watch_off',
    'admin_watch_on',
    'assistant_review_proposed_tasks',
    'assumption_menu',
    'connect_again',
    'connect_new_account',
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
    'grade_peer_open',
    'minute_delete',
    'minute_edit_open',
    'notify_kinds',
    'person_profile',
    'quiet_end',
    'quiet_start',
    'reply_change_open',
    'reply_open',
    'task_assign_open',
    'task_delete',
    'task_delete_ask',
    'task_details_open',
    'task_discovery_open',
    'task_edit_open',
    'task_state_back',
    'task_state_forward',
    'tasks_more',
    'team_picked',
    'who_knows',
    'workflow_act_for',
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
    'draft_feature/draft_feature_input',
    'draft_task_0/draft_task_0_input',
    'evidence_feature/evidence_feature_input',
    'experiment_state/experiment_state_input',
    'feature/feature_input',
    'focus/focus_input',
    'follow_profile/follow_profile_input',
    'grade/grade_input',
    'heading/heading_input',
    'invite_days/invite_days_input',
    'invite_name/invite_name_input',
    'invite_role/invite_role_input',
    'invite_team/invite_team_input',
    'invite_uses/invite_uses_input',
    'issue/issue_input',
    'link_options/link_options_input',
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
    'share_to/share_to_input',
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
    'feature_list|',
    'feature|',
    'form_problem',
    'task_actions|',
    'task|',
  ],
  events: ['planning_digest', 'planning_feature', 'planning_task'],
  steps: ['advance_feature', 'create_task', 'log_discovery', 'post_feature_status'],
  stepParameters: [
    'act_as',
    'assignee',
    'card_permalink',
    'channel',
    'details',
    'discovery',
    'feature',
    'heading',
    'interactivity',
    'planning_channel_id',
    'planning_team_id',
    'stage',
    'task_id',
  ],
};

const FROZEN_VALUES = {
  DraftMeta: {
    channel: 'string',
    'threadTs?': 'string',
    teamId: 'string',
    channelId: 'string',
    count: 'integer',
  },
  ProposedTasks: {
    c: 'string',
    'f?': 'string',
    h: ['string'],
    't?': 'string',
  },
  AdminPlace: {
    s: 'people|invitations|teams|notions|billing|links|team|channel',
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
    f: 'invite|editInvite|share|renameAccount|newTeam|renameTeam|newChannel|renameChannel|teamAdd|teamRemove|channelAdd|personTeams|newNotion|renameNotion|link|digestTime',
    'id?': 'string',
    't?': 'string',
    'c?': 'string',
    'n?': 'string',
  },
  FormMeta: {
    f: 'invite|editInvite|share|renameAccount|newTeam|renameTeam|newChannel|renameChannel|teamAdd|teamRemove|channelAdd|personTeams|newNotion|renameNotion|link|digestTime',
    'id?': 'string',
    't?': 'string',
    'c?': 'string',
    'n?': 'string',
    'v?': 'string',
    'at?': {
      s: 'people|invitations|teams|notions|billing|links|team|channel',
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
  ReplyMeta: {
    teamId: 'string',
    channelId: 'string',
    featureId: 'string',
    taskId: 'string',
    feedbackId: 'string',
    'dm?': { channel: 'string', ts: 'string' },
  },
  DeleteConfirmMeta: {
    press: 'string',
    'on?': { channel: 'string', ts: 'string' },
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
  KnowsPage: { n: 'string', p: 'integer' },
  GradePeerValue: { u: 'string', 'n?': 'string', 'v?': 'string' },
};
