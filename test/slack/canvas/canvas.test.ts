/**
 * The plan as a channel canvas (issue 37) through the app as Slack drives it: signed requests (the
 * link form, a task made from a message, unlink, uninstall), the fake Slack's canvases (what the
 * channel's canvas shows, section by section) and the planning sandbox changed over its API.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appJobs, type Job } from '../../../src/app/jobs.js';
import { createClients } from '../../../src/clients.js';
import { planningAccessFor } from '../../../src/digest/access.js';
import { createLogger } from '../../../src/logger.js';
import { ADMIN_ACTION, ADMIN_VIEW } from '../../../src/slack/admin/ids.js';
import { NO_LONGER_KEPT } from '../../../src/slack/canvas/index.js';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { LINK_CHOICES, LINK_FIELD, LINK_VIEW } from '../../../src/slack/link/ids.js';
import { describeWithPostgres } from '../../helpers/postgres.js';
import {
  BOT_TOKEN,
  choice,
  eventually,
  Harness,
  onTwoReplicas,
  TEAM,
  viewIdOf,
} from '../../helpers/slack-harness.js';

let h: Harness;

/** The admin (the sandbox's owner) and a member connected, both in C1. */
async function people(on: Harness) {
  on.slack.users.set('UADMIN', { id: 'UADMIN', name: 'root', isAdmin: true });
  await on.connect('UADMIN', 'owner');
  await on.connect('U1', 'member');
  on.slack.channel('C1', 'UADMIN', 'U1');
}

const ws = () => h.slack.workspace;
const canvasOf = (channel = 'C1') => ws().canvasOf(channel);
const markdownOf = (channel = 'C1') => {
  const canvas = canvasOf(channel);
  return canvas ? ws().canvasMarkdown(canvas) : '';
};

/** `/plan link` in `channel` by the admin, submitted with the canvas ticked or not; the answer shown. */
async function linkThrough(canvas: boolean, channel = 'C1', on: Harness = h): Promise<string> {
  const h = on;
  const since = h.slack.calls.length;
  await h.command('link', 'UADMIN', channel);
  const filled = await h.slack.waitFor(
    'views.update',
    (b) => JSON.stringify(b.view).includes(`"callback_id":"${LINK_VIEW.link}"`),
    { since },
  );
  const viewId = String(filled.body.view_id);
  // A new link is offered the canvas.
  expect(JSON.stringify(filled.body.view)).toMatch(/"initial_options":\[[^\]]*"value":"canvas"/);
  const ticked = [LINK_CHOICES.watch, ...(canvas ? [LINK_CHOICES.canvas] : [])];
  await h.submit(
    viewId,
    [
      [FIELD.team, choice(h.fixture.teamId, 'Core team')],
      [FIELD.channel, choice(h.fixture.channelId, 'General')],
      [LINK_FIELD.digestTime, { type: 'timepicker', selected_time: '09:00' }],
      [
        LINK_FIELD.timeZone,
        {
          type: 'external_select',
          selected_option: { value: 'UTC', text: { type: 'plain_text', text: 'UTC' } },
        },
      ],
      [
        LINK_FIELD.linkOptions,
        {
          type: 'checkboxes',
          selected_options: ticked.map((value) => ({ value, text: { type: 'plain_text', text: value } })),
        },
      ],
    ],
    { user: 'UADMIN' },
  );
  const answer = await h.slack.waitFor(
    'views.update',
    (b) => JSON.stringify(b.view).includes('is linked to'),
    {
      since,
    },
  );
  return JSON.stringify(answer.body.view);
}

describe('the plan as a channel canvas', () => {
  beforeEach(async () => {
    h = await Harness.start();
    await people(h);
  });
  afterEach(() => h.close());

  it('turned on: the channel canvas is made with the plan in the service’s order, markup in headings inert', async () => {
    const owner = h.owner();
    const { teamId, channelId } = h.fixture;
    const other = await owner.features.create(teamId, channelId, {
      heading: 'Checked # not a heading <@U999> [x](https://evil.example)',
    });
    await owner.assumptions.create(teamId, channelId, other.id, { heading: 'People want it' });
    await owner.features.advance(teamId, channelId, other.id);

    const answer = await linkThrough(true);
    expect(answer).toContain('kept in the channel’s canvas');

    const canvas = canvasOf();
    expect(canvas).toMatchObject({ kind: 'channel', title: 'Core team › General: plan' });
    const md = markdownOf();
    expect(md.indexOf('## Planning')).toBeGreaterThan(0);
    expect(md.indexOf('## Planning')).toBeLessThan(md.indexOf('## Validation'));
    expect(md.slice(md.indexOf('## Validation'))).toContain('### Checked');
    expect(md).toContain(`### ${h.fixture.featureHeading}`);
    expect(md).toContain('- Assumption 1: experiment not started');
    // The heading's markup shows as typed: no heading, mention or link of its own.
    expect(md.split('\n').filter((l) => /^#{1,3} /.test(l))).toHaveLength(5);
    expect(md).not.toMatch(/(^|[^\\])<@U999>/);
    expect(md).not.toContain('](https://evil');
    expect(await h.store.canvases.get(TEAM, 'C1')).toMatchObject({
      enabled: true,
      status: 'live',
      canvasId: canvas!.id,
    });
  });

  it('a change made from Slack is in its section at once, one edit, without waiting for the watch', async () => {
    await linkThrough(true);
    const before = markdownOf();
    const edits = h.slack.called('canvases.edit').length;

    await h.createTask('Check the numbers', { user: 'U1' });

    await eventually(
      () => markdownOf().includes('Check the numbers (idle, unassigned)'),
      'the task in the canvas',
    );
    const calls = h.slack.called('canvases.edit').slice(edits);
    expect(calls).toHaveLength(1);
    const [change] = calls[0]!.body.changes as { operation: string; section_id?: string }[];
    expect(change).toMatchObject({ operation: 'replace', section_id: expect.any(String) });
    // Only the feature's section changed: the rest is as it was.
    expect(markdownOf().split('\n### ')[0]).toBe(before.split('\n### ')[0]);
    // Recorded up to date once the edit landed (the store is written after Slack answered the edit).
    await eventually(
      async () => (await h.store.canvases.get(TEAM, 'C1'))?.dirtyAt === undefined,
      'the canvas recorded up to date',
    );
  });

  it('left off: no canvas is made, and a change makes no canvas call', async () => {
    const answer = await linkThrough(false);
    expect(answer).not.toContain('canvas');
    await h.createTask('Check the numbers', { user: 'U1' });
    expect(canvasOf()).toBeUndefined();
    expect(h.slack.calls.filter((c) => c.method.includes('canvases'))).toEqual([]);
  });

  it.each([
    ['restricted_action', 'a workspace setting keeps apps from making canvases'],
    ['canvas_disabled_user_team', 'canvases are turned off in this workspace'],
    ['missing_scope', 'canvases:write'],
  ])(
    'Slack refusing (%s) is told once to whoever turned it on; the link keeps working',
    async (code, said) => {
      ws().canvasRefusal = code;
      const answer = await linkThrough(true);
      expect(answer).toContain(said);
      expect(await h.store.links.get(TEAM, 'C1')).toBeDefined();
      expect(await h.store.canvases.get(TEAM, 'C1')).toMatchObject({ status: 'refused', problem: code });

      const calls = h.slack.calls.length;
      await h.createTask('Check the numbers', { user: 'U1' });
      // The task and its card as always; no canvas call, and the refusal is not told again.
      expect(h.slack.calls.slice(calls).filter((c) => c.method.includes('canvases'))).toEqual([]);
      expect(JSON.stringify(h.slack.called('chat.postMessage'))).not.toContain('cannot be kept');
    },
  );

  it('a free workspace gets a canvas tabbed in the channel', async () => {
    ws().freeTier = true;
    const answer = await linkThrough(true);
    expect(answer).toContain('tabbed in the channel');
    expect(canvasOf()).toMatchObject({ kind: 'tab', channelId: 'C1' });
    expect(markdownOf()).toContain(`### ${h.fixture.featureHeading}`);
  });

  it('a canvas deleted in Slack is noted, not made again by later changes', async () => {
    await linkThrough(true);
    canvasOf()!.deleted = true;
    await h.createTask('Check the numbers', { user: 'U1' });
    await eventually(async () => (await h.store.canvases.get(TEAM, 'C1'))?.status === 'gone', 'noted gone');
    await h.createTask('And again', { user: 'U1' });
    expect(h.slack.called('conversations.canvases.create')).toHaveLength(1);
    expect(canvasOf()).toBeUndefined();
  });

  it('unlinked: the canvas ends with a line saying it is no longer kept current, and is forgotten', async () => {
    await linkThrough(true);
    await h.command('unlink', 'UADMIN', 'C1');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('no longer linked'));
    expect(markdownOf().split('\n').at(-1)).toBe(NO_LONGER_KEPT);
    expect(await h.store.canvases.get(TEAM, 'C1')).toBeUndefined();
  });

  it('turned off in the link form: the canvas stays with its last line, and no change edits it', async () => {
    await linkThrough(true);
    const answer = await linkThrough(false);
    expect(answer).toContain('no longer kept current');
    expect(markdownOf().split('\n').at(-1)).toBe(NO_LONGER_KEPT);
    const edits = h.slack.called('canvases.edit').length;
    await h.createTask('Check the numbers', { user: 'U1' });
    expect(h.slack.called('canvases.edit')).toHaveLength(edits);
  });

  it('the admin’s Links and digests section turns it on, stops it (left with its last line) and deletes it', async () => {
    await h.link('C1', 'UADMIN');
    const hasView = (b: Record<string, unknown>, text: string) => JSON.stringify(b.view).includes(text);
    await h.command('admin', 'UADMIN');
    const rootId = String(
      (await h.slack.waitFor('views.update', (b) => hasView(b, `"callback_id":"${ADMIN_VIEW.root}"`))).body
        .view_id,
    );
    const since = h.slack.calls.length;
    await h.press({ view: rootId }, ADMIN_ACTION.section, { value: 'links', user: 'UADMIN' });
    const sectionId = viewIdOf(await h.slack.waitFor('views.push', undefined, { since }));
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === sectionId && hasView(b, 'No canvas of the plan'),
    );
    const C1 = JSON.stringify({ id: 'C1' });

    await h.press({ view: sectionId }, ADMIN_ACTION.canvasOn, { value: C1, user: 'UADMIN' });
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === sectionId && hasView(b, 'kept in the channel’s canvas'),
    );
    expect(markdownOf()).toContain(`### ${h.fixture.featureHeading}`);
    expect(await h.store.canvases.get(TEAM, 'C1')).toMatchObject({ enabled: true, turnedOnBy: 'UADMIN' });

    await h.press({ view: sectionId }, ADMIN_ACTION.canvasOff, { value: C1, user: 'UADMIN' });
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === sectionId && hasView(b, 'no longer kept current'),
    );
    expect(markdownOf().split('\n').at(-1)).toBe(NO_LONGER_KEPT);

    await h.press({ view: sectionId }, ADMIN_ACTION.canvasOn, { value: C1, user: 'UADMIN' });
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === sectionId && hasView(b, ADMIN_ACTION.canvasDelete),
    );
    const id = canvasOf()!.id;
    await h.press({ view: sectionId }, ADMIN_ACTION.canvasDelete, { value: C1, user: 'UADMIN' });
    await h.slack.waitFor('views.update', (b) => b.view_id === sectionId && hasView(b, 'canvas was deleted'));
    expect(ws().canvases.get(id)?.deleted).toBe(true);
    expect(await h.store.canvases.get(TEAM, 'C1')).toMatchObject({ enabled: false, status: 'gone' });
  });

  it('Home’s link list tells an admin which channels keep their plan in a canvas', async () => {
    await linkThrough(true);
    await h.link('C2', 'UADMIN');
    const since = h.slack.calls.length;
    await h.event({ type: 'app_home_opened', user: 'UADMIN', channel: 'DUADMIN', tab: 'home' });
    const filled = await h.slack.waitFor(
      'views.publish',
      (b) => b.user_id === 'UADMIN' && JSON.stringify(b.view).includes('Workspace admin'),
      { since },
    );
    const shown = JSON.stringify(filled.body.view);
    expect(shown).toContain('<#C1> — digest off, plan kept in its canvas');
    expect(shown).not.toMatch(/<#C2> — [^"]*canvas/);
  });

  it('uninstalled: the canvas ids are forgotten', async () => {
    await linkThrough(true);
    expect((await h.event({ type: 'app_uninstalled' })).status).toBe(200);
    await eventually(async () => (await h.store.canvases.get(TEAM, 'C1')) === undefined, 'forgotten');
  });
});

const WATCH_INTERVAL_MS = 1_000;
const quiet = createLogger({ level: 'warn', destination: { write: () => undefined } });

/** One replica's minute tick as the app runs it (src/app/jobs.ts): the watch, then the canvases. */
function replicaJobs(on: Harness, owner: string, now: () => number): Job[] {
  const clients = createClients({ planningUrl: on.sandbox.url, slackApiUrl: on.slack.apiUrl, logger: quiet });
  const jobs = appJobs({
    store: on.store,
    clients,
    logger: quiet,
    config: on.config,
    botTokenFor: async (workspaceId) => (workspaceId === TEAM ? BOT_TOKEN : undefined),
    planningAccessFor: planningAccessFor({ store: on.store, clients }),
    watch: { intervalMs: WATCH_INTERVAL_MS, owner },
    canvas: { now },
  });
  return jobs.filter((j) => j.name === 'watch' || j.name === 'canvases');
}

const tickAll = async (jobs: Job[]) => {
  let seen = 0;
  for (const job of jobs) {
    const report = (await job.run(new Date())) as { seen?: number } | undefined;
    seen += report?.seen ?? 0;
  }
  return seen;
};

describeWithPostgres('the canvas kept by the watch, two replicas on PostgreSQL', () => {
  let a: Harness;
  let b: Harness;
  onTwoReplicas('canvas_watch', {}, (r) => ({ a, b } = r));

  it('a change made elsewhere is in the canvas within one watch interval, edited once', async () => {
    h = a;
    await people(a);
    await linkThrough(true, 'C1', a);
    // The canvases' clock, moved on by hand past the minute between two edits.
    let skew = 0;
    const now = () => Date.now() + skew;
    const [ja, jb] = [replicaJobs(a, 'replica-a', now), replicaJobs(b, 'replica-b', now)];
    // The watch's first look is its baseline.
    await eventually(
      async () => (await Promise.all([tickAll(ja), tickAll(jb)])).some((n) => n > 0),
      'a baseline',
    );
    const edits = a.slack.called('canvases.edit').length;

    const owner = a.owner();
    const { teamId, channelId, featureId } = a.fixture;
    await owner.tasks.create(teamId, channelId, featureId, { heading: 'Made elsewhere' });

    await eventually(
      async () => {
        await Promise.all([tickAll(ja), tickAll(jb)]);
        return markdownOf().includes('Made elsewhere (idle, unassigned)');
      },
      'the task in the canvas',
      10_000,
    );
    // Both replicas keep ticking past the next interval: nothing more to edit.
    await eventually(
      async () => (await Promise.all([tickAll(ja), tickAll(jb)])).some((n) => n > 0),
      'another look',
    );
    const calls = a.slack.called('canvases.edit').slice(edits);
    expect(calls).toHaveLength(1);
    expect((calls[0]!.body.changes as { section_id?: string }[])[0]?.section_id).toEqual(expect.any(String));

    // Advanced elsewhere within the minute: seen by the watch, shown once the minute is over, in one
    // whole edit (the feature moves to its stage).
    await owner.assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
    await owner.features.advance(teamId, channelId, featureId);
    await eventually(
      async () => {
        await Promise.all([tickAll(ja), tickAll(jb)]);
        return (await a.store.canvases.get(TEAM, 'C1'))?.dirtyAt !== undefined;
      },
      'the canvas waiting for its edit',
      10_000,
    );
    await Promise.all([tickAll(ja), tickAll(jb)]);
    expect(markdownOf()).not.toContain('## Validation');
    skew = 60_000;
    await Promise.all([tickAll(ja), tickAll(jb)]);
    expect(markdownOf()).toContain('## Validation (1)');
    await Promise.all([tickAll(ja), tickAll(jb)]);
    expect(a.slack.called('canvases.edit').slice(edits)).toHaveLength(2);
    expect(markdownOf()).not.toContain('## Planning');
  });
});
