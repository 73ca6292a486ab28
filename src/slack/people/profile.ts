/**
 * A person's planning profile, shown privately to whoever asks (`/plan who @someone`, or *Planning
 * profile* beside a person on a card or in a list): their account name and role, their experience
 * per notion — self grade, peers' average and count, as the service gives it, never who graded
 * them or when — their open tasks in the channels linked here and the features they author. Read
 * with the reader's own account, at most {@link PER_REQUEST} calls at a time. For oneself the view
 * adds what the Home tab shows: what waits for you and your recent activity.
 */
import type { KnownBlock } from '@slack/types';
import pLimit from 'p-limit';
import {
  channelMention,
  context,
  header,
  inline,
  type Mrkdwn,
  md,
  mention,
  message,
  packSections,
  plural,
  section,
} from '../../blockkit/index.js';
import type { Experience } from '../../planning/index.js';
import { GRADES_PRIVACY } from '../grades/index.js';
import {
  type ActivityLine,
  activityBlocks,
  activityPeople,
  describeAccount,
  type ExperienceRow,
  experienceRows,
  gatherParts,
  linkedPlanning,
  onePerPlanningChannel,
  type Part,
  type PendingFeedback,
  type Planning,
  waitingBlocks,
} from '../home/index.js';
import { experiencePhrase } from '../kit/experience.js';
import type { Acting } from '../kit/identity.js';
import { COMMAND } from '../kit/ids.js';
import type { Reply } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import type { Person } from './person.js';

/** Calls in flight at once for one profile. */
const PER_REQUEST = 4;
/** Notions read at most (a page of the service's list), and shown before "…and N more". */
const MAX_EXPERIENCES = 200;
const SHOWN_NOTIONS = 30;
const SHOWN_TASKS = 10;
const SHOWN_FEATURES = 10;

export interface ProfileData {
  person: Person;
  /** Their account's name and organization role, when the service gave them. */
  account: Part<{ name?: string; role?: string }>;
  experiences: ExperienceRow[];
  /** Undefined when no channel here is linked to a planning channel. */
  planning?: Part<Planning>;
  /** Oneself only: what the Home tab adds. */
  home?: { waiting: Part<PendingFeedback[]>; activity: Part<ActivityLine[]>; at: number };
}

const FAILED = { ok: false, problem: 'failed' } as const;

function settled<T>(result: PromiseSettledResult<T>): Part<T> {
  return result.status === 'fulfilled' ? { ok: true, value: result.value } : FAILED;
}

/** Reads the profile of `person` with the reader's account. @throws what reading their experience threw */
export async function readProfile(svc: Services, acting: Acting, person: Person): Promise<ProfileData> {
  const links = onePerPlanningChannel(await svc.deps.store.links.listByWorkspace(acting.workspaceId));
  const client = acting.planning;
  if (person.self) {
    const parts = gatherParts(client, acting.identity, links, {
      concurrency: PER_REQUEST,
      people: activityPeople(svc.deps, acting.workspaceId),
    });
    const [account, experiences, planning, waiting, activity] = await Promise.allSettled([
      parts.account,
      parts.experiences,
      parts.planning,
      parts.waiting,
      parts.activity,
    ]);
    if (experiences.status === 'rejected') throw experiences.reason;
    const described =
      account.status === 'fulfilled' ? describeAccount(account.value, acting.identity) : undefined;
    return {
      person,
      account:
        described?.state === 'connected'
          ? { ok: true, value: { name: described.userName, role: described.role } }
          : FAILED,
      experiences: experiences.value,
      ...(links.length > 0 ? { planning: settled(planning) } : {}),
      home: { waiting: settled(waiting), activity: settled(activity), at: Date.now() },
    };
  }
  const limit = pLimit(PER_REQUEST);
  const call = <T>(fn: () => Promise<T>) => limit(fn);
  const [account, experiences, planning] = await Promise.allSettled([
    call(() => client.serviceAccounts.read(person.serviceAccountId)),
    call(async () => {
      const all: Experience[] = [];
      for await (const e of client.experiences.listPeer(person.planningUserId, { pageSize: 100 })) {
        all.push(e);
        if (all.length >= MAX_EXPERIENCES) break;
      }
      return all;
    }),
    linkedPlanning(client, person, links, call),
  ]);
  if (experiences.status === 'rejected') throw experiences.reason;
  return {
    person,
    // Only the name and the role are kept: a reader who may manage the account is sent its token too.
    account:
      account.status === 'fulfilled'
        ? { ok: true, value: { name: account.value.userName, role: account.value.roleOrg } }
        : FAILED,
    experiences: experienceRows(experiences.value),
    ...(links.length > 0 ? { planning: settled(planning) } : {}),
  };
}

const PEER_PRIVACY = md`Peer grades are anonymous: only their average and how many there are are shown, never who graded or when.`;

const UNREADABLE = md`:warning: The planning service could not give this part right now; try again later.`;

function more(count: number, where: Mrkdwn): KnownBlock {
  return context(md`…and ${count} more — ${where}.`);
}

function experienceSection(p: ProfileData): KnownBlock[] {
  const blocks: KnownBlock[] = [section(md`*Experience* (grades 1–10)`)];
  if (p.experiences.length === 0) {
    const none = p.person.self
      ? md`You have no grades yet: grade yourself or a peer with \`${COMMAND} grade\`.`
      : md`Nobody graded them on any notion yet, themselves included.`;
    return [...blocks, context(none)];
  }
  const label = p.person.self ? 'you' : 'self';
  const lines = p.experiences
    .slice(0, SHOWN_NOTIONS)
    .map((r) => md`• *${inline(r.notion, 80)}* — ${experiencePhrase(r, label)}`);
  blocks.push(...packSections(lines));
  if (p.experiences.length > SHOWN_NOTIONS) {
    const where = p.person.self
      ? md`\`${COMMAND} grades\` lists every notion`
      : md`\`${COMMAND} who knows <notion>\` ranks the team on one`;
    blocks.push(more(p.experiences.length - SHOWN_NOTIONS, where));
  }
  return blocks;
}

function planningSections(p: ProfileData): KnownBlock[] {
  const whose = p.person.self ? 'Your' : 'Their';
  if (!p.planning) {
    return [
      context(
        md`No channel here is linked to a planning channel, so there are no tasks or features to show: a workspace admin can run \`${COMMAND} link\`.`,
      ),
    ];
  }
  if (!p.planning.ok) return [section(md`*${whose} open tasks and features*`), context(UNREADABLE)];
  const { tasks, features, unreadChannels } = p.planning.value;
  const open = tasks.filter((t) => t.state !== 'done');
  const authored = features.filter((f) => f.mine);
  const blocks: KnownBlock[] = [section(md`*${whose} open tasks* in the linked channels (${open.length})`)];
  if (open.length === 0) blocks.push(context(md`None.`));
  else {
    blocks.push(
      ...packSections(
        open
          .slice(0, SHOWN_TASKS)
          .map(
            (t) =>
              md`• *${inline(t.heading, 150)}* (${t.state}) · ${inline(t.featureHeading, 80)} · ${channelMention(t.slackChannelId)}`,
          ),
      ),
    );
    if (open.length > SHOWN_TASKS) {
      blocks.push(more(open.length - SHOWN_TASKS, md`\`${COMMAND} tasks\` in each channel lists them`));
    }
  }
  blocks.push(section(md`*Features ${p.person.self ? 'you author' : 'they author'}* (${authored.length})`));
  if (authored.length === 0) blocks.push(context(md`None.`));
  else {
    blocks.push(
      ...packSections(
        authored
          .slice(0, SHOWN_FEATURES)
          .map((f) => md`• *${inline(f.heading, 150)}* (${f.stage}) in ${channelMention(f.slackChannelId)}`),
      ),
    );
    if (authored.length > SHOWN_FEATURES) {
      blocks.push(
        more(authored.length - SHOWN_FEATURES, md`\`${COMMAND} features\` in each channel lists them`),
      );
    }
  }
  if (unreadChannels.length > 0) {
    const channels = unreadChannels.map(channelMention);
    blocks.push(
      context(
        md`:warning: Could not read ${channels.length === 1 ? channels[0]! : md`${plural(channels.length, 'channel')}`} right now.`,
      ),
    );
  }
  return blocks;
}

function whoLine(p: ProfileData): Mrkdwn {
  const who = mention(p.person.slackUserId);
  if (!p.account.ok) return md`${who} — their account could not be read right now.`;
  const { name, role } = p.account.value;
  const named = name ? md` acts as *${inline(name, 64)}*` : md``;
  const as = role ? md`, ${role} of the organization` : md``;
  return md`${who}${named}${as}.`;
}

/** Pure: the profile as a private message, within Slack's 50 blocks. */
export function profileMessage(p: ProfileData): Reply {
  const title = p.person.self ? 'Your planning profile' : 'Planning profile';
  const blocks: KnownBlock[] = [
    header(title),
    section(md`:bust_in_silhouette: ${whoLine(p)}`),
    ...experienceSection(p),
    context(p.person.self ? GRADES_PRIVACY : PEER_PRIVACY),
    ...planningSections(p),
  ];
  if (p.home) {
    const { waiting, activity, at } = p.home;
    // The Home tab's own sections, as the tab shows them.
    blocks.push(...waitingBlocks({ waiting, planning: p.planning ?? FAILED }));
    blocks.push(...activityBlocks({ activity, at }));
  }
  return message(md`${title}: ${whoLine(p)}`, blocks);
}

/** Reads and renders the profile. */
export async function profileReply(svc: Services, acting: Acting, person: Person): Promise<Reply> {
  return profileMessage(await readProfile(svc, acting, person));
}
