/**
 * Who knows a notion: the people of the linked team of this channel ranked by their experience on
 * it (peers' average first, then their own grade), with the notion as the service has it
 * (`notions.read`), ten to a page with More. Each person's experience is one read
 * (`experiences.readPeer`; `experiences.read` for the asker), at most {@link PER_REQUEST} at a time
 * and for at most {@link MAX_PEOPLE} people per request. A name that matches no notion gets the
 * closest ones offered as buttons.
 */
import type { KnownBlock } from '@slack/types';
import pLimit from 'p-limit';
import { z } from 'zod';
import {
  actions,
  button,
  context,
  header,
  inline,
  joinMd,
  type Mrkdwn,
  md,
  mention,
  message,
  plural,
  section,
} from '../../blockkit/index.js';
import {
  type Experience,
  NotFoundError,
  type Notion,
  type PlanningClient,
  type User,
} from '../../planning/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { type ExperienceFigures, experiencePhrase, figuresOf } from '../kit/experience.js';
import type { Acting } from '../kit/identity.js';
import { COMMAND } from '../kit/ids.js';
import { notice, type Reply } from '../kit/messages.js';
import { peopleOf, profileButton } from '../kit/people.js';
import { parseCarried, toWire, wireValue } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { respondSurface, showFailure } from '../kit/surfaces.js';
import { PEOPLE_ACTION } from './ids.js';

/** Calls in flight at once for one request. */
const PER_REQUEST = 4;
/** Team members whose experience one request reads at most. */
export const MAX_PEOPLE = 100;
export const KNOWS_PAGE_SIZE = 10;
/** Closest notions offered for a name that matches none. */
const CLOSEST = 5;

/** What a who-knows button carries, as code reads it: the notion and the page to show. */
export interface KnowsPage {
  notionId: string;
  page: number;
}

/** On the wire `n` the notion id, `p` the page (from 1). */
export const KnowsPage = wireValue(
  z.object({ n: z.string().min(1).max(200), p: z.number().int().min(1) }),
  (w): KnowsPage => ({ notionId: w.n, page: w.p }),
  (k) => ({ n: k.notionId, p: k.page }),
);

/** Edit distance between two short strings (notion names are at most 64 characters). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** Pure: the notions closest to `name`, containing it first, then by edit distance. */
export function closestNotions(name: string, notions: readonly Notion[], count = CLOSEST): Notion[] {
  const wanted = name.toLowerCase();
  const scored = notions
    .filter((n) => n.value)
    .map((n) => {
      const value = (n.value as string).toLowerCase();
      const contains = value.includes(wanted) || wanted.includes(value);
      return { n, score: (contains ? 0 : 1000) + distance(wanted, value) };
    });
  const seen = new Set<string>();
  return scored
    .sort((a, b) => a.score - b.score || (a.n.value ?? '').localeCompare(b.n.value ?? ''))
    .filter(({ n }) => !seen.has(n.id) && Boolean(seen.add(n.id)))
    .slice(0, count)
    .map(({ n }) => n);
}

/** The notion named `name` (case aside), or the closest ones. */
async function notionNamed(client: PlanningClient, name: string) {
  const { notions: found } = await client.notions.search({ searchTerm: name, pageSize: 100 });
  const wanted = name.toLowerCase();
  const exact = found.find((n) => (n.value ?? '').toLowerCase() === wanted);
  if (exact) return { notion: exact };
  // A typo matches nothing by substring: the first page of every notion is ranked instead.
  const { notions: all } = await client.notions.search({ pageSize: 500 });
  return { closest: closestNotions(name, [...found, ...all]) };
}

function knowsButton(label: string, value: KnowsPage, primary = false) {
  return button(label, PEOPLE_ACTION.knows, {
    value: toWire(KnowsPage, value),
    ...(primary ? { style: 'primary' as const } : {}),
  });
}

/** Pure: the answer to a name that matches no notion. */
export function noSuchNotion(name: string, closest: readonly Notion[]): Reply {
  if (closest.length === 0) {
    return notice(
      md`There is no notion named “${inline(name, 64)}”, and your organization has none yet: a workspace admin adds them in \`${COMMAND} admin\`.`,
    );
  }
  const text = md`There is no notion named “${inline(name, 64)}”. The closest: ${joinMd(
    closest.map((n) => md`*${inline(n.value ?? n.id, 64)}*`),
    ', ',
  )}.`;
  return message(text, [
    section(text),
    actions(undefined, ...closest.map((n) => knowsButton(n.value ?? n.id, { notionId: n.id, page: 1 }))),
  ]);
}

/** A member of the team with their experience on the notion. */
export interface Ranked {
  planningUserId: string;
  name: string;
  slackUserId?: string;
  figures: ExperienceFigures;
}

const graded = (r: Ranked) => r.figures.self !== undefined || r.figures.peerAverage !== undefined;

/** Pure: best first — peers' average (more grades first on a tie), then the self grade, then the name. */
export function rank(people: readonly Ranked[]): Ranked[] {
  return [...people].sort(
    (a, b) =>
      (b.figures.peerAverage ?? -1) - (a.figures.peerAverage ?? -1) ||
      b.figures.peerCount - a.figures.peerCount ||
      (b.figures.self ?? -1) - (a.figures.self ?? -1) ||
      a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }),
  );
}

/** Pure: one page of the ranking, with More while there are more, within a message's 50 blocks. */
export function knowsMessage(notion: Notion, people: readonly Ranked[], page: number, unread: number): Reply {
  const name = inline(notion.value ?? notion.id, 64);
  const ranked = rank(people.filter(graded));
  const ungraded = people.filter((p) => !graded(p));
  const pages = Math.max(1, Math.ceil(ranked.length / KNOWS_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const first = (current - 1) * KNOWS_PAGE_SIZE;
  const blocks: KnownBlock[] = [
    header(`Who knows ${notion.value ?? 'this notion'}`),
    context(
      md`Notion *${name}* · ${plural(ranked.length, 'person', 'people')} of this channel's team graded on it, best first. Peer grades are anonymous: their average and how many, never who graded or when.`,
    ),
  ];
  if (ranked.length === 0) {
    blocks.push(section(md`Nobody in this channel's team has been graded on *${name}* yet.`));
  }
  ranked.slice(first, first + KNOWS_PAGE_SIZE).forEach((person, i) => {
    const who = person.slackUserId
      ? mention(person.slackUserId)
      : md`${inline(person.name, 64)} (not in Slack)`;
    const [profile] = profileButton(person.slackUserId);
    blocks.push({
      ...section(md`*${first + i + 1}.* ${who} — ${experiencePhrase(person.figures)}`),
      ...(profile ? { accessory: profile } : {}),
    });
  });
  if (current === pages && ungraded.length > 0) {
    const names = ungraded
      .slice(0, 20)
      .map((p) => (p.slackUserId ? mention(p.slackUserId) : inline(p.name, 64)));
    const rest = ungraded.length > 20 ? md` …and ${ungraded.length - 20} more` : md``;
    blocks.push(context(md`Not graded on it: ${joinMd(names, ', ')}${rest}.`));
  }
  if (unread > 0) {
    blocks.push(
      context(
        md`${plural(unread, 'more member')} of the team were not read (at most ${MAX_PEOPLE} per request).`,
      ),
    );
  }
  if (current < pages) {
    blocks.push(
      context(md`Page ${current} of ${pages}.`),
      actions(undefined, knowsButton('More', { notionId: notion.id, page: current + 1 })),
    );
  }
  return message(md`Who knows ${name}: ${plural(ranked.length, 'person', 'people')} graded`, blocks);
}

/** The team's members: its default channel's, open accounts only, at most {@link MAX_PEOPLE} (+1 to tell). */
async function teamMembers(client: PlanningClient, teamId: string): Promise<User[]> {
  const team = await client.teams.read(teamId);
  const main = team.channels.find((c) => c.isDefault) ?? team.channels[0];
  if (!main) return [];
  const members: User[] = [];
  for await (const m of client.channels.listMembers(teamId, main.id, { pageSize: 100 })) {
    if (m.closedTime || m.puppetAccount) continue;
    members.push(m);
    if (members.length > MAX_PEOPLE) break;
  }
  return members;
}

/** The ranking of the linked team on a notion, as seen from `slackChannelId`, or why not. */
export async function knowsReply(
  svc: Services,
  acting: Acting,
  slackChannelId: string,
  wanted: { name: string } | { notionId: string },
  page = 1,
): Promise<Reply> {
  const link = await svc.deps.store.links.get(acting.workspaceId, slackChannelId);
  if (!link) {
    return notice(
      md`This channel is not linked to a planning team yet, so I cannot tell whom to rank: a workspace admin can run \`${COMMAND} link\`.`,
    );
  }
  const client = acting.planning;
  let notionId: string;
  if ('name' in wanted) {
    const named = await notionNamed(client, wanted.name);
    if (!named.notion) return noSuchNotion(wanted.name, named.closest);
    notionId = named.notion.id;
  } else notionId = wanted.notionId;
  const limit = pLimit(PER_REQUEST);
  const [notion, members] = await Promise.all([
    limit(() => client.notions.read(notionId)),
    limit(() => teamMembers(client, link.teamId)),
  ]);
  const read = members.slice(0, MAX_PEOPLE);
  const me = acting.identity.planningUserId;
  const experiences = await Promise.all(
    read.map((m) =>
      limit(async (): Promise<Experience | undefined> => {
        try {
          return m.id === me
            ? await client.experiences.read(notion.id)
            : await client.experiences.readPeer(notion.id, m.id);
        } catch (error) {
          // No grade yet on this notion: the service has no experience for them.
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }
      }),
    ),
  );
  const people = await peopleOf(
    svc.deps,
    acting.workspaceId,
    read.map((m) => m.id),
  );
  const ranked: Ranked[] = read.map((m, i) => {
    const slackUserId = people.slackUserOf(m.id);
    return {
      planningUserId: m.id,
      name: m.userName ?? 'an unnamed account',
      ...(slackUserId ? { slackUserId } : {}),
      figures: figuresOf(experiences[i]),
    };
  });
  return knowsMessage(notion, ranked, page, members.length > MAX_PEOPLE ? members.length - MAX_PEOPLE : 0);
}

const GONE: Mrkdwn = md`That notion no longer exists in the planning service.`;

/** More, or a closest notion picked: the page replaces the message it was pressed on. */
export async function knowsAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const carried = parseCarried(KnowsPage, actionValue(args.action));
  const channel = args.body.channel?.id;
  if (!carried || !channel || !args.respond) return;
  const surface = respondSurface(args.respond);
  try {
    const acting = await planning.acting();
    const reply = await knowsReply(svc, acting, channel, { notionId: carried.notionId }, carried.page);
    await args.respond({ replace_original: true, ...reply });
  } catch (error) {
    if (error instanceof NotFoundError) {
      await surface.show(notice(GONE));
      return;
    }
    await showFailure(svc.deps, surface, error, {
      action: 'who knows',
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}
