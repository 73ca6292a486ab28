/**
 * The Home tab, built purely from one person's {@link HomeSnapshot}: connection, what waits for
 * them, their tasks by state, features by stage, their experiences (self vs peers, anonymous), recent
 * activity, their notification preferences and, for workspace admins, the channel links. A section
 * whose data is missing says so in one line. Within Slack's 100 blocks: long lists end with "…and N
 * more" and the command that lists them.
 */
import type { Button, Checkboxes, HomeView, KnownBlock, StaticSelect } from '@slack/types';
import {
  actions,
  button,
  channelMention,
  context,
  cut,
  divider,
  header,
  homeView,
  inline,
  joinMd,
  listSection,
  type Mrkdwn,
  md,
  mention,
  mrkdwn,
  option,
  packSections,
  plain,
  plural,
  quote,
  SLACK_USER_ID,
  section,
  slackDate,
} from '../../blockkit/index.js';
import { FEATURE_STAGES, TASK_STATES, type TaskState } from '../../planning/index.js';
import { closeAccountButton, disconnectButton, followProfileBlocks } from '../account/index.js';
import { ADMIN_ACTION } from '../admin/index.js';
import { FEEDBACK_ACTION, FeedbackRef } from '../feedback/index.js';
import { GRADES_PRIVACY } from '../grades/index.js';
import { NOTIFICATION_KINDS, NOTIFICATION_LABELS } from '../kit/dm-kinds.js';
import { experiencePhrase } from '../kit/experience.js';
import { ACTION, COMMAND } from '../kit/ids.js';
import { connectBlocks } from '../kit/messages.js';
import { HOME_ACTION } from './ids.js';
import type { ActivityLine, HomeFeature, HomeSnapshot, HomeTask, Part } from './snapshot.js';

/** The buttons of one task row (the task card's state buttons; none by default). */
export type TaskControls = (task: HomeTask) => Button[];

export interface HomeOptions {
  taskControls?: TaskControls;
  /** A line shown at the top (the outcome of a button pressed on the tab). */
  banner?: Mrkdwn;
  /** The data is the last one read, being refreshed. */
  refreshing?: boolean;
  /**
   * Quiet hours with one end picked on the tab and not saved yet: shown instead of the stored ones,
   * so picking the other end completes them (the selects' state carries the first end back).
   */
  quietPicked?: QuietPicked;
}

/** One end of quiet hours as picked on the tab (the other not yet). */
export interface QuietPicked {
  start?: string;
  end?: string;
}

/** Rows shown per task state and per list before "…and N more". */
const PER_STATE = 5;
const MAX_FEEDBACK = 5;

const STATE_TITLE: Record<TaskState, string> = {
  idle: ':white_circle: To do',
  'in progress': ':large_blue_circle: In progress',
  'in review': ':large_orange_circle: In review',
  done: ':large_green_circle: Done',
};

const PROBLEM: Record<'slow' | 'failed' | 'loading', Mrkdwn> = {
  loading: md`_Loading…_`,
  slow: md`:hourglass: The planning service is slow to answer; this part will show next time you open the tab.`,
  failed: md`:warning: The planning service could not give this part right now; open the tab again later.`,
};

/** One line in place of a section whose data is missing. */
function missing(part: Part<unknown>): KnownBlock[] {
  return part.ok ? [] : [context(PROBLEM[part.problem])];
}

const moreHint = (count: number, where: Mrkdwn) => context(md`…and ${count} more — ${where}`);

function connectionBlocks(s: HomeSnapshot): KnownBlock[] {
  const c = s.connection;
  if (c.state === 'none' || c.state === 'invalid') {
    const text =
      c.state === 'none'
        ? md`:link: You are not connected to the Team Planning Service yet. Connect to see your tasks, features and grades here.`
        : md`:link: Your connection to the Team Planning Service stopped working. Reconnect to continue.`;
    return [
      section(text),
      actions(
        undefined,
        button(c.state === 'invalid' ? 'Reconnect' : 'Connect', ACTION.connectOpen, { style: 'primary' }),
      ),
    ];
  }
  if (c.state === 'left') return connectBlocks(c.reason);
  if (c.state === 'loading') return [context(md`_Loading…_`)];
  if (c.state === 'not-member') {
    return [section(md`:no_entry: The app only acts for full members of this workspace.`)];
  }
  const role = c.role ? md` as *${c.role}*` : md``;
  const org = c.orgName ? md` in *${inline(c.orgName, 100)}*` : md``;
  const how = c.origin === 'provisioned' ? 'an account the app created for you' : 'a token you pasted';
  return [
    section(
      md`:bust_in_silhouette: You act as *${inline(c.userName ?? 'an unnamed account', 100)}*${org}${role}.`,
    ),
    context(md`Connected with ${how}.`),
    // A provisioned account always follows the Slack profile; a pasted one only by choice.
    ...(c.origin === 'brought' ? followProfileBlocks(c.followsProfile) : []),
    actions(undefined, disconnectButton(), ...(c.origin === 'brought' ? [closeAccountButton()] : [])),
  ];
}

/** What waits for the person (also shown on their own planning profile). */
export function waitingBlocks(s: Pick<HomeSnapshot, 'waiting' | 'planning'>): KnownBlock[] {
  const blocks: KnownBlock[] = [header('Waiting for me')];
  if (!s.waiting.ok && !s.planning.ok) return [...blocks, ...missing(s.waiting)];
  const feedback = s.waiting.ok ? s.waiting.value : [];
  for (const f of feedback.slice(0, MAX_FEEDBACK)) {
    blocks.push({
      type: 'section',
      text: mrkdwn(
        md`:speech_balloon: Feedback on *${inline(f.taskHeading, 150)}*\n${quote(cut(f.message, 300))}`,
      ),
      accessory: button('Reply', FEEDBACK_ACTION.replyOpen, {
        value: JSON.stringify(FeedbackRef.parse(f.ref)),
      }),
    });
  }
  if (feedback.length > MAX_FEEDBACK) {
    blocks.push(moreHint(feedback.length - MAX_FEEDBACK, md`each one's DM has its Reply button`));
  }
  if (!s.waiting.ok) blocks.push(...missing(s.waiting));
  const advance = s.planning.ok ? s.planning.value.features.filter((f) => f.mine && f.canAdvance) : [];
  blocks.push(
    ...listSection(
      md`:arrow_forward: Features you authored that can advance`,
      advance.map(
        (f) => md`• *${inline(f.heading, 150)}* (${f.stage}) in ${channelMention(f.slackChannelId)}`,
      ),
    ),
  );
  if (s.waiting.ok && feedback.length === 0 && advance.length === 0) {
    blocks.push(context(md`Nothing waits for you. :tada:`));
  }
  return blocks;
}

function taskBlocks(s: HomeSnapshot, controls: TaskControls): KnownBlock[] {
  const blocks: KnownBlock[] = [header('My tasks')];
  if (!s.planning.ok) return [...blocks, ...missing(s.planning)];
  const { tasks, unreadChannels } = s.planning.value;
  if (tasks.length === 0) blocks.push(context(md`No task in the linked channels is assigned to you.`));
  for (const state of TASK_STATES) {
    const mine = tasks.filter((t) => t.state === state);
    if (mine.length === 0) continue;
    blocks.push(section(md`*${STATE_TITLE[state]}* (${mine.length})`));
    for (const task of mine.slice(0, PER_STATE)) {
      blocks.push(
        context(
          md`*${inline(task.heading, 150)}* · ${inline(task.featureHeading, 100)} · ${channelMention(task.slackChannelId)}`,
        ),
      );
      const buttons = controls(task);
      if (buttons.length > 0) blocks.push(actions(undefined, ...buttons));
    }
    if (mine.length > PER_STATE) {
      blocks.push(
        moreHint(mine.length - PER_STATE, md`\`${COMMAND} digest now\` in a linked channel lists them`),
      );
    }
  }
  if (unreadChannels.length > 0) {
    blocks.push(
      context(md`:warning: Could not read ${joinMd(unreadChannels.map(channelMention), ', ')} right now.`),
    );
  }
  return blocks;
}

function byStage(features: readonly HomeFeature[]): Mrkdwn[] {
  return FEATURE_STAGES.flatMap((stage) => {
    const at = features.filter((f) => f.stage === stage);
    if (at.length === 0) return [];
    const names = joinMd(
      at.slice(0, 8).map((f) => inline(f.heading, 80)),
      ', ',
    );
    const more = at.length > 8 ? ` …and ${at.length - 8} more` : '';
    return [md`*${stage}* (${at.length}): ${names}${more}`];
  });
}

function featureBlocks(s: HomeSnapshot): KnownBlock[] {
  const blocks: KnownBlock[] = [header('Features')];
  if (!s.planning.ok) return [...blocks, ...missing(s.planning)];
  const { features } = s.planning.value;
  if (features.length === 0) return [...blocks, context(md`No features yet in the linked channels.`)];
  const mine = features.filter((f) => f.mine);
  blocks.push(...listSection(md`Mine`, byStage(mine), { total: mine.length }));
  const channels = [...new Set(features.map((f) => f.slackChannelId))];
  for (const channel of channels.slice(0, MAX_CHANNELS)) {
    const here = features.filter((f) => f.slackChannelId === channel);
    blocks.push(
      section(joinMd([md`${channelMention(channel)} — ${plural(here.length, 'feature')}`, ...byStage(here)])),
    );
  }
  if (channels.length > MAX_CHANNELS) {
    blocks.push(moreHint(channels.length - MAX_CHANNELS, md`each channel's digest lists its features`));
  }
  return blocks;
}

function experienceBlocks(s: HomeSnapshot): KnownBlock[] {
  const blocks: KnownBlock[] = [header('My experiences')];
  if (!s.experiences.ok) return [...blocks, ...missing(s.experiences)];
  const rows = s.experiences.value;
  if (rows.length === 0) {
    return [
      ...blocks,
      context(
        md`No grades yet. Grade yourself or a peer with \`${COMMAND} grade\` or the *Grade a peer* shortcut.`,
      ),
    ];
  }
  const lines = rows.map((r) => md`• *${inline(r.notion, 80)}* — ${experiencePhrase(r, 'you')}`);
  const shown = lines.slice(0, MAX_NOTIONS);
  blocks.push(...packSections(shown));
  if (lines.length > MAX_NOTIONS) {
    blocks.push(moreHint(lines.length - MAX_NOTIONS, md`\`${COMMAND} grades\` lists every notion`));
  }
  if (s.chartFileId) {
    blocks.push({
      type: 'image',
      slack_file: { id: s.chartFileId },
      alt_text: "Your self grade and your peers' average per notion",
    });
  }
  blocks.push(context(GRADES_PRIVACY));
  return blocks;
}

const EVENT_TEXT: Record<string, string> = {
  features: ':bulb: A feature',
  assumptions: ':thinking_face: An assumption',
  tasks: ':memo: A task',
  'self-evaluation': ':bar_chart: Your self grade',
};

/**
 * What an event's `diff` names (the service's field names) in words. A name not listed here (a
 * field the service adds later) is still said in words: `experiment.successCriteria` → "experiment
 * success criteria", `reviewerUserId` → "reviewer".
 */
const CHANGE_WORDS: Record<string, string> = {
  heading: 'heading',
  details: 'details',
  state: 'state',
  stage: 'stage',
  priority: 'priority',
  focus: 'focus',
  assigneeUserId: 'assignee',
  notionIds: 'notions',
  notions: 'notions',
  discoveries: 'discoveries',
  feedback: 'feedback',
  minute: 'discoveries and feedback',
  experiment: 'experiment',
  // The event itself says "Your self grade": nothing to add.
  selfEval: '',
};

/** One `diff` entry in words. */
export function changeInWords(field: string): string {
  const word = (name: string) => (Object.hasOwn(CHANGE_WORDS, name) ? CHANGE_WORDS[name] : undefined);
  const known = word(field);
  if (known !== undefined) return known;
  return field
    .split('.')
    .map((part) => word(part) ?? part.replace(/(User)?Ids?$/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2'))
    .join(' ')
    .toLowerCase()
    .trim();
}

/** " by @someone" where the app knows who did it; nothing otherwise. */
const byWhom = (e: ActivityLine): Mrkdwn =>
  e.bySlackUserId && SLACK_USER_ID.test(e.bySlackUserId) ? md` by ${mention(e.bySlackUserId)}` : md``;

/** What a line is about, named: "Task *Build login* in *Login page*", "Feature *Login page*". */
function activitySubject(e: ActivityLine): Mrkdwn {
  const feature = e.feature === undefined ? undefined : inline(e.feature, 80);
  if (e.type === 'tasks' && e.task !== undefined)
    return feature
      ? md`:memo: Task *${inline(e.task, 80)}* in *${feature}*`
      : md`:memo: Task *${inline(e.task, 80)}*`;
  if (e.type === 'features' && feature) return md`:bulb: Feature *${feature}*`;
  if (e.type === 'assumptions' && feature) return md`:thinking_face: An assumption of *${feature}*`;
  return md`${EVENT_TEXT[e.type ?? ''] ?? ':small_blue_diamond: Something'}`;
}

/** "changed: its heading and notions", "was created", "is now in *Discovery*". */
function whatHappened(e: ActivityLine): Mrkdwn {
  if (e.type === 'features' && e.stage && (e.diff.length === 0 || e.diff.includes('stage')))
    return md` is now in *${e.stage}*`;
  if (e.diff.includes('created')) return md` was created`;
  if (e.diff.includes('deleted')) return md` was deleted`;
  const words = [...new Set(e.diff.map(changeInWords).filter((w) => w !== ''))];
  if (words.length === 0) return md` changed`;
  const shown = words.slice(0, 4);
  const list = shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  const more = words.length > shown.length ? ` and ${words.length - shown.length} more` : '';
  return md` changed: ${inline(`its ${list}${more}`, 120)}`;
}

/** Their account's recent activity (also shown on their own planning profile). */
export function activityBlocks(s: Pick<HomeSnapshot, 'activity' | 'at'>): KnownBlock[] {
  const blocks: KnownBlock[] = [header('Recent activity')];
  if (!s.activity.ok) return [...blocks, ...missing(s.activity)];
  const lines = s.activity.value
    .slice(0, MAX_ACTIVITY)
    .map((e) => md`• ${activitySubject(e)}${whatHappened(e)}${byWhom(e)}`);
  if (lines.length === 0)
    return [...blocks, context(md`Nothing changed lately on your tasks, your features or your grades.`)];
  const at = new Date(s.at);
  return [
    ...blocks,
    ...packSections(lines),
    context(
      md`Latest first, as of ${slackDate(at, '{date_short_pretty} {time}', at.toISOString())} (your time zone).`,
    ),
  ];
}

const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);

/** An hour select showing `value`: 'No quiet hours' when none is stored, the placeholder when `pending`. */
function hourSelect(
  actionId: string,
  placeholder: string,
  value: string | undefined,
  pending: boolean,
): StaticSelect {
  const options = [option('No quiet hours', 'off'), ...HOURS.map((h) => option(h, h))];
  const initial = options.find((o) => o.value === (value ?? (pending ? undefined : 'off')));
  return {
    type: 'static_select',
    action_id: actionId,
    placeholder: plain(placeholder, 150),
    options,
    ...(initial ? { initial_option: initial } : {}),
  };
}

function prefsBlocks(s: HomeSnapshot, picked: QuietPicked | undefined): KnownBlock[] {
  const muted = new Set(s.prefs?.muted ?? []);
  const options = NOTIFICATION_KINDS.map((k) => option(NOTIFICATION_LABELS[k], k));
  const on = options.filter((o) => !muted.has(o.value ?? ''));
  const kinds: Checkboxes = {
    type: 'checkboxes',
    action_id: HOME_ACTION.notifyKinds,
    options,
    ...(on.length > 0 ? { initial_options: on } : {}),
  };
  const quiet = picked ?? s.prefs?.quiet;
  return [
    header('Notifications'),
    section(md`Direct messages I send you:`),
    actions(undefined, kinds),
    section(md`*Quiet hours* — messages wait until they end:`),
    actions(
      undefined,
      hourSelect(HOME_ACTION.quietStart, 'From', quiet?.start, picked !== undefined),
      hourSelect(HOME_ACTION.quietEnd, 'Until', quiet?.end, picked !== undefined),
    ),
    context(
      md`In your Slack time zone (${inline(s.prefs?.timeZone ?? s.timeZone, 60)}). Nothing is sent twice.`,
    ),
    ...workflowBlocks(s),
  ];
}

/** Whether workflow steps someone else runs may act as the person: off unless they turn it on. */
function workflowBlocks(s: HomeSnapshot): KnownBlock[] {
  const allow = option(WORKFLOW_ACT_FOR_LABEL, 'on');
  const box: Checkboxes = {
    type: 'checkboxes',
    action_id: HOME_ACTION.workflowActFor,
    options: [allow],
    ...(s.workflowActFor ? { initial_options: [allow] } : {}),
  };
  return [
    header('Workflows'),
    actions(undefined, box),
    context(
      md`A workflow step always acts as whoever runs the workflow. With this on, a step someone else runs (or a scheduled one) may name you in *Act as* and create tasks or advance features in your name.`,
    ),
  ];
}

/** The Home's checkbox label (Slack's limit is 75 characters). */
export const WORKFLOW_ACT_FOR_LABEL = 'Let workflow steps act for me';

function adminBlocks(s: HomeSnapshot): KnownBlock[] {
  if (!s.admin) return [];
  const lines = s.admin.links.map((l) => {
    const digest = l.digestEnabled
      ? md`digest at ${l.digestTime} ${inline(l.timeZone, 60)}${l.weekdaysOnly ? md`, weekdays` : md``}`
      : md`digest off`;
    const canvas = s.admin?.canvases?.includes(l.slackChannelId) ? md`, plan kept in its canvas` : md``;
    return md`• ${channelMention(l.slackChannelId)} — ${digest}${canvas}`;
  });
  return [
    header('Workspace admin'),
    ...(lines.length > 0
      ? listSection(md`Linked channels`, lines)
      : [context(md`No channel is linked yet: \`${COMMAND} link\` in a channel.`)]),
    actions(undefined, button('Manage links and digests', ADMIN_ACTION.openModal)),
  ];
}

const MAX_CHANNELS = 8;
const MAX_NOTIONS = 15;
const MAX_ACTIVITY = 10;

/** The whole tab. Pure. */
export function homeBlocks(s: HomeSnapshot, options: HomeOptions = {}): KnownBlock[] {
  const controls = options.taskControls ?? (() => []);
  const top: KnownBlock[] = [
    header('Team Planning'),
    ...(options.banner ? [section(options.banner)] : []),
    ...(options.refreshing ? [context(md`:arrows_counterclockwise: Updating…`)] : []),
    ...connectionBlocks(s),
  ];
  if (s.connection.state !== 'connected') return [...top, ...adminSection(s)];
  return [
    ...top,
    divider(),
    ...waitingBlocks(s),
    divider(),
    ...taskBlocks(s, controls),
    divider(),
    ...featureBlocks(s),
    divider(),
    ...experienceBlocks(s),
    divider(),
    ...activityBlocks(s),
    divider(),
    ...prefsBlocks(s, options.quietPicked),
    ...adminSection(s),
  ];
}

function adminSection(s: HomeSnapshot): KnownBlock[] {
  const blocks = adminBlocks(s);
  return blocks.length > 0 ? [divider(), ...blocks] : [];
}

/** The Home view, within Slack's 100 blocks. */
export function homeTab(s: HomeSnapshot, options: HomeOptions = {}): HomeView {
  return homeView(homeBlocks(s, options));
}
