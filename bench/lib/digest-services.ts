/**
 * The benchmark's outside world, in a process of its own so that its CPU and memory are not
 * counted as the scheduler's: the sandbox (one organization per workspace, each with a team whose
 * default channel holds `features` features of one open task each) and Slack — the playground's fake
 * Slack (the tests' one) on loopback, with the bench's `channels` linked channels (C00000…) and one
 * bot token per workspace (`benchBotToken`). `GET /_stats` on the fake's port says how many
 * messages Slack accepted and the CPU this process used; `GET /_stats?date=YYYY-MM-DD` also how
 * many channels got that day's scheduled digest and how many got it more than once. With
 * `postLimits`, the fake enforces Slack's posting limits (429 with Retry-After). Prints one JSON line with the URLs and each organization's owner token once
 * the data is in and the latency set, then serves until stdin closes.
 *
 * With `channelPerLink` (bench:watch), each linked channel has a planning channel of its own in
 * its organization (`channelIds`: the organization's k-th one is link `k × orgs + i`), each holding
 * `features` features, so a change made in one is seen by one link only; the fake Slack then also
 * has each workspace's member (`benchMember`) with a DM open, and `/_stats` counts Slack calls by
 * method (`counts`), accepted messages posted in a thread (`threadPosts`) and in a DM (`dmPosts`).
 *
 * `role` splits the two over processes (bench:replicas: with three replicas on two cores, one
 * process serving both was the bottleneck): `sandbox` serves only the sandbox (its line has
 * `planningUrl` and `orgs`), `slack` only the fake Slack (`slackApiUrl` and `statsUrl`); the default,
 * `both`, serves both in this one process.
 *
 *   node --import tsx bench/lib/digest-services.ts '{"orgs":100,"channels":2000,"features":10,"latencyMs":50}'
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createLogger } from '../../src/logger.js';
import { closePlanningPools, createPlanningClient } from '../../src/planning/index.js';
import { type FakePostLimits, FakeSlack } from '../../src/playground/fake-slack.js';
import { Workspace } from '../../src/playground/workspace.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { benchBotToken, benchChannel, benchMember } from './digest-names.js';

export interface DigestServices {
  planningUrl: string;
  slackApiUrl: string;
  /** `GET` it: `{ postCount, cpuMs }`. */
  statsUrl: string;
  orgs: {
    orgId: string;
    ownerToken: string;
    /** The organization's member service account (bench:watch connects it and assigns it tasks). */
    memberId: string;
    memberToken: string;
    teamId: string;
    channelId: string;
    /** With `channelPerLink`: the planning channel of each of the organization's links, in order. */
    channelIds?: string[];
  }[];
}

/** Which of the services a process serves (see the header). */
export type DigestServicesRole = 'both' | 'sandbox' | 'slack';

const {
  orgs: orgCount,
  channels,
  features,
  latencyMs,
  postLimits,
  role = 'both',
  channelPerLink = false,
} = JSON.parse(process.argv[2] ?? '{}') as {
  orgs: number;
  channelPerLink?: boolean;
  channels: number;
  features: number;
  latencyMs: number;
  postLimits?: FakePostLimits;
  role?: DigestServicesRole;
};
const logger = createLogger({ level: 'error', destination: pino.destination({ fd: 2, sync: true }) });
const ready: Partial<DigestServices> = {};
const stops: (() => Promise<void>)[] = [];
if (role !== 'sandbox') Object.assign(ready, await serveSlack());
if (role !== 'slack') Object.assign(ready, await serveSandbox());
process.stdout.write(`${JSON.stringify(ready)}\n`);

process.stdin.resume();
process.stdin.on('end', async () => {
  for (const stop of stops) await stop();
  process.exit(0);
});

async function serveSlack(): Promise<Pick<DigestServices, 'slackApiUrl' | 'statsUrl'>> {
  // One fake Slack for all the bench's workspaces: each channel exists, with the bot in it.
  const workspace = new Workspace();
  for (let c = 0; c < channels; c += 1)
    workspace.addChannel({ id: benchChannel(c), members: [workspace.bot.userId] });
  if (channelPerLink)
    for (let w = 0; w < orgCount; w += 1) {
      const id = benchMember(w);
      workspace.addUser({ id, name: `member-${w}` });
      workspace.imWith(id, `D${id}`);
    }
  // Calls are counted, not kept: 20,000 digests' bodies would only grow this process.
  const tokens = Array.from({ length: orgCount }, (_, w) => benchBotToken(w));
  const slack = new FakeSlack({ workspace, tokens, logger, record: false });
  if (postLimits) slack.enforcePostLimits(postLimits);
  /** Scheduled digests Slack accepted, per local date, per channel. */
  const digestsPerDay = new Map<string, Map<string, number>>();
  let threadPosts = 0;
  let dmPosts = 0;
  slack.observe((call) => {
    if (call.method !== 'chat.postMessage' || !FakeSlack.accepted(call)) return;
    if (call.body.thread_ts) threadPosts += 1;
    else if (String(call.body.channel).startsWith('D')) dmPosts += 1;
    const payload = (call.body.metadata as { event_payload?: { local_date?: string; on_demand?: boolean } })
      ?.event_payload;
    if (!payload?.local_date || payload.on_demand) return;
    const day = digestsPerDay.get(payload.local_date) ?? new Map<string, number>();
    digestsPerDay.set(payload.local_date, day);
    const channel = String(call.body.channel);
    day.set(channel, (day.get(channel) ?? 0) + 1);
  });
  const server = createServer((req, res) => {
    void slack.handle(req, res).then((served) => {
      if (served) return;
      const url = new URL(req.url ?? '/', 'http://services');
      if (req.method === 'GET' && url.pathname === '/_stats') {
        const cpu = process.cpuUsage();
        const day = digestsPerDay.get(url.searchParams.get('date') ?? '');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            postCount: slack.counts.get('chat.postMessage') ?? 0,
            rateLimited: slack.rateLimited,
            cpuMs: (cpu.user + cpu.system) / 1000,
            channelsPosted: day?.size ?? 0,
            postedTwice: [...(day?.values() ?? [])].filter((n) => n > 1).length,
            counts: Object.fromEntries(slack.counts),
            threadPosts,
            dmPosts,
          }),
        );
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  slack.setUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  stops.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { slackApiUrl: slack.apiUrl, statsUrl: `${slack.url}/_stats` };
}

async function serveSandbox(): Promise<Pick<DigestServices, 'planningUrl' | 'orgs'>> {
  const sandbox = await startSandbox({ seed: 'none', logger });
  stops.push(() => sandbox.close());
  const orgs: DigestServices['orgs'] = [];
  for (let i = 0; i < orgCount; i += 1) {
    const org = await sandbox.createOrganization(`Bench Org ${i}`);
    const planning = createPlanningClient({ baseUrl: sandbox.url, token: org.ownerToken });
    const team = await planning.teams.create({ teamName: `Team ${i}` });
    const channelId = (await planning.teams.read(team.id)).channels[0]?.id ?? '';
    const channelIds: string[] = [];
    if (channelPerLink) {
      // Link k × orgs + i of this organization reads its k-th channel; the team's first is the first.
      for (let c = i; c < channels; c += orgCount) {
        if (c === i) channelIds.push(channelId);
        else {
          const name = `Channel ${c}`;
          const expanded = await planning.channels.create(team.id, { channelName: name });
          const made = expanded.channels.find((ch) => ch.channelName === name);
          if (!made) throw new Error(`channel "${name}" was not made`);
          channelIds.push(made.id);
        }
      }
    } else channelIds.push(channelId);
    for (const [k, id] of channelIds.entries()) {
      for (let f = 0; f < features; f += 1) {
        const feature = await planning.features.create(team.id, id, {
          heading: channelPerLink ? `Feature ${f} of channel ${k} of org ${i}` : `Feature ${f} of org ${i}`,
        });
        await planning.tasks.create(team.id, id, feature.id, { heading: `Task of feature ${f}` });
      }
    }
    orgs.push({
      orgId: org.orgId,
      ownerToken: org.ownerToken,
      memberId: org.memberId,
      memberToken: org.memberToken,
      teamId: team.id,
      channelId,
      ...(channelPerLink ? { channelIds } : {}),
    });
  }
  await closePlanningPools();
  sandbox.setLatency(latencyMs);
  return { planningUrl: sandbox.url, orgs };
}
