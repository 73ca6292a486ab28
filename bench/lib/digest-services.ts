/**
 * The benchmark's outside world, in a process of its own so that its CPU and memory are not
 * counted as the scheduler's: the sandbox (one organization per workspace, each with a team whose
 * default channel holds `features` features of one open task each) and the fake Slack API. Prints one
 * JSON line with the URLs and each organization's owner token once the data is in and the latency
 * set, then serves until stdin closes.
 *
 *   node --import tsx bench/lib/digest-services.ts '{"orgs":100,"features":10,"latencyMs":50}'
 */
import { pino } from 'pino';
import { createLogger } from '../../src/logger.js';
import { closePlanningPools, createPlanningClient } from '../../src/planning/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { startFakeSlack } from './digest-fake-slack.js';

export interface DigestServices {
  planningUrl: string;
  slackApiUrl: string;
  orgs: { orgId: string; ownerToken: string; teamId: string; channelId: string }[];
}

const {
  orgs: orgCount,
  features,
  latencyMs,
} = JSON.parse(process.argv[2] ?? '{}') as {
  orgs: number;
  features: number;
  latencyMs: number;
};
const sandbox = await startSandbox({
  seed: 'none',
  logger: createLogger({ level: 'error', destination: pino.destination({ fd: 2, sync: true }) }),
});
const slack = await startFakeSlack();
slack.countOnly = true;

const orgs: DigestServices['orgs'] = [];
for (let i = 0; i < orgCount; i += 1) {
  const org = await sandbox.createOrganization(`Bench Org ${i}`);
  const planning = createPlanningClient({ baseUrl: sandbox.url, token: org.ownerToken });
  const team = await planning.teams.create({ teamName: `Team ${i}` });
  const channelId = (await planning.teams.read(team.id)).channels[0]?.id ?? '';
  for (let f = 0; f < features; f += 1) {
    const feature = await planning.features.create(team.id, channelId, {
      heading: `Feature ${f} of org ${i}`,
    });
    await planning.tasks.create(team.id, channelId, feature.id, { heading: `Task of feature ${f}` });
  }
  orgs.push({ orgId: org.orgId, ownerToken: org.ownerToken, teamId: team.id, channelId });
}
await closePlanningPools();
sandbox.setLatency(latencyMs);
const ready: DigestServices = { planningUrl: sandbox.url, slackApiUrl: slack.url, orgs };
process.stdout.write(`${JSON.stringify(ready)}\n`);

process.stdin.resume();
process.stdin.on('end', async () => {
  await Promise.all([sandbox.close(), slack.close()]);
  process.exit(0);
});
