/**
 * bench:digest's bare floor: what one digest cannot cost less than. For each linked channel it
 * makes the same service reads as the app's digest (one features page, then each open task of a
 * feature that is not in deep context, `gather` at a time) and the same one Slack post — with undici
 * and `JSON.parse` only: no validation, no store, no scheduler, no claims, no Block Kit builders. It
 * runs in the same kind of process as the app's pass, against the same services and limits (digests
 * in flight, sockets), so the app's CPU per digest can be read as a ratio to this.
 */
import { Pool } from 'undici';
import { benchBotToken, benchChannel } from './digest-names.js';
import type { DigestServices } from './digest-services.js';

interface BareFeature {
  id: string;
  heading: string;
  stage: string;
  tasks: { id: string; state: string }[];
}
interface BareTask {
  heading?: string;
  minute?: { feedback?: { reply?: string }[] };
}

export interface FloorOptions {
  channels: number;
  workspaces: number;
  gather: number;
  inFlight: number;
  connections: number;
}

/** Runs `work` over `items`, `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function json<T>(pool: Pool, path: string, headers: Record<string, string>): Promise<T> {
  const response = await pool.request({ path, method: 'GET', headers });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
  return JSON.parse(text) as T;
}

/** One bare digest per channel; resolves with how many Slack accepted. */
export async function bareDigests(services: DigestServices, options: FloorOptions): Promise<number> {
  const planningBase = new URL(services.planningUrl);
  const basePath = planningBase.pathname.replace(/\/+$/, '');
  const slackBase = new URL(services.slackApiUrl);
  const planning = new Pool(planningBase.origin, { connections: options.connections });
  const slack = new Pool(slackBase.origin, { connections: options.connections });
  const slackPath = `${slackBase.pathname.replace(/\/+$/, '')}/chat.postMessage`;
  let posted = 0;
  try {
    const channels = Array.from({ length: options.channels }, (_, c) => c);
    await eachLimited(channels, options.inFlight, async (c) => {
      const org = services.orgs[c % options.workspaces];
      if (!org) throw new Error('fewer organizations than workspaces');
      const headers = {
        authorization: `Bearer ${org.ownerToken}`,
        accept: 'application/json',
        'x-org-id': org.orgId,
      };
      const channelPath = `${basePath}/teams/${org.teamId}/channels/${org.channelId}/features`;
      const page = await json<{ features: BareFeature[] }>(planning, `${channelPath}?pageSize=500`, headers);
      const open = page.features
        .filter((f) => f.stage !== 'deep context')
        .flatMap((f) => f.tasks.filter((t) => t.state !== 'done').map((t) => ({ feature: f, task: t })));
      const waiting: string[] = [];
      await eachLimited(open, options.gather, async ({ feature, task }) => {
        const read = await json<BareTask>(planning, `${channelPath}/${feature.id}/tasks/${task.id}`, headers);
        const count = (read.minute?.feedback ?? []).filter((f) => !f.reply?.trim()).length;
        if (count > 0) waiting.push(`${feature.heading}: ${read.heading ?? ''} (${count})`);
      });
      const text = `Planning digest: ${page.features.length} features, ${waiting.length} tasks waiting for feedback`;
      const blocks = [
        { type: 'section', text: { type: 'mrkdwn', text } },
        ...page.features.slice(0, 10).map((f) => ({
          type: 'section',
          text: { type: 'mrkdwn', text: `*${f.heading}* · ${f.stage}` },
        })),
      ];
      const response = await slack.request({
        path: slackPath,
        method: 'POST',
        headers: {
          authorization: `Bearer ${benchBotToken(c % options.workspaces)}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ channel: benchChannel(c), text, blocks }),
      });
      const answer = JSON.parse(await response.body.text()) as { ok?: boolean };
      if (answer.ok) posted += 1;
    });
  } finally {
    await Promise.all([planning.close(), slack.close()]);
  }
  return posted;
}
