/**
 * What a card's thread is told about changes made outside Slack: one line per change, and one short
 * message per card per pass with every line of that card — activity first, then the minute's new
 * entries — never one message per field. User text goes through `md`/`inline` (escaped, cut).
 */
import {
  inline,
  joinMd,
  type Mrkdwn,
  md,
  mention,
  message,
  plural,
  section,
} from '../../../blockkit/index.js';
import {
  FEATURE_STAGES,
  LIMITS,
  type MinuteDiscovery,
  type MinuteFeedback,
} from '../../../planning/index.js';
import { STAGE_NAMES } from '../../../planning/stages.js';
import type { FeatureChange } from '../../../watch/changes.js';

/** Lines one message shows at most; the rest are counted ("…and N more"). */
export const MAX_LINES = 10;
/** A minute entry's text is cut to this many characters in a thread. */
const ENTRY_CHARS = 300;

/** A person as a line names them: a mention when connected here, else their planning name, else "someone". */
export type Who = (planningUserId: string | undefined) => Mrkdwn;

export function whoFrom(
  slackUserOf: (planningUserId: string | undefined) => string | undefined,
  nameOf: (planningUserId: string) => string | undefined = () => undefined,
): Who {
  return (planningUserId) => {
    const slackUserId = slackUserOf(planningUserId);
    if (slackUserId) return mention(slackUserId);
    const name = planningUserId === undefined ? undefined : nameOf(planningUserId);
    return name ? md`*${inline(name, LIMITS.userName.max)}*` : md`someone`;
  };
}

const taskName = (heading: string | undefined) => inline(heading ?? 'Untitled task', LIMITS.heading);

/**
 * One change as a line in a card's thread. On a task's own card the task is not named again.
 * Undefined for what a line does not tell (a task added shows on the feature card only).
 */
export function activityLine(change: FeatureChange, who: Who, onTaskCard: boolean): Mrkdwn | undefined {
  const task = (heading: string | undefined) => (onTaskCard ? md`` : md`Task *${taskName(heading)}* `);
  switch (change.kind) {
    case 'stage': {
      const back = FEATURE_STAGES.indexOf(change.to) < FEATURE_STAGES.indexOf(change.from);
      return back
        ? md`Moved back to *${STAGE_NAMES[change.to]}*`
        : md`Advanced to *${STAGE_NAMES[change.to]}*`;
    }
    case 'heading':
      return md`Renamed *${inline(change.to ?? 'Untitled feature', LIMITS.heading)}*`;
    case 'assumptionAdded':
      return md`An assumption was added`;
    case 'assumptionRemoved':
      return md`An assumption was removed`;
    case 'experiment':
      return change.to ? md`An experiment is now *${change.to}*` : md`An experiment was cleared`;
    case 'taskAdded':
      return onTaskCard ? undefined : md`Task *${taskName(change.heading)}* added`;
    case 'taskRemoved':
      return onTaskCard ? undefined : md`Task *${taskName(change.heading)}* removed`;
    case 'taskState':
      return onTaskCard ? md`Moved to *${change.to}*` : md`${task(change.heading)}moved to *${change.to}*`;
    case 'taskAssignee':
      if (!change.to) return onTaskCard ? md`Unassigned` : md`${task(change.heading)}unassigned`;
      return onTaskCard
        ? md`Assigned to ${who(change.to)}`
        : md`${task(change.heading)}assigned to ${who(change.to)}`;
    case 'taskHeading':
      return onTaskCard
        ? md`Renamed *${taskName(change.to)}*`
        : md`Task *${taskName(change.from)}* renamed *${taskName(change.to)}*`;
  }
}

/** A minute entry added outside Slack, as a line in its task card's thread. */
export function minuteLine(
  entry: { kind: 'discovery'; entry: MinuteDiscovery } | { kind: 'feedback'; entry: MinuteFeedback },
  who: Who,
): Mrkdwn {
  if (entry.kind === 'discovery') {
    return md`:bulb: Discovery by ${who(entry.entry.authorUserId)}: ${inline(entry.entry.details ?? '', ENTRY_CHARS)}`;
  }
  const issue = entry.entry.issue ? md` (${entry.entry.issue})` : md``;
  return md`:speech_balloon: Feedback${issue} by ${who(entry.entry.authorUserId)}: ${inline(entry.entry.message ?? '', ENTRY_CHARS)}`;
}

/** The one message a card's thread gets in a pass: its lines, capped. */
export function activityMessage(lines: readonly Mrkdwn[]) {
  const shown = lines.slice(0, MAX_LINES).map((line) => md`• ${line}`);
  const more = lines.length - shown.length;
  if (more > 0) shown.push(md`…and ${plural(more, 'more change', 'more changes')}`);
  const title = md`:arrows_counterclockwise: Changed outside Slack`;
  const body = joinMd([title, ...shown]);
  return message(lines.length === 1 ? md`${title}: ${lines[0]}` : title, [section(body)]);
}
