/** The task card's pure builders: buttons by state, escaping, Slack's limits for any size, fit labels, paging. */
import { describe, expect, it } from 'vitest';
import { SLACK_LIMITS } from '../../../src/blockkit/index.js';
import { ForbiddenError, NotFoundError } from '../../../src/planning/index.js';
import { TASK_STATES } from '../../../src/planning/models.js';
import { notFoundSentence, refusal } from '../../../src/slack/kit/failures.js';
import { ACTION } from '../../../src/slack/kit/ids.js';
import { prefillDiscovery } from '../../../src/slack/kit/slack-text.js';
import { assignModal, candidateOption, fitLabel } from '../../../src/slack/tasks/assign.js';
import {
  describeTaskChange,
  liveTaskCard,
  type TaskView,
  taskCoordsFromMessage,
  taskShown,
  taskStateButtons,
} from '../../../src/slack/tasks/card.js';
import { type MinuteEntry, taskDetailsModal } from '../../../src/slack/tasks/details.js';
import { TASK_ACTION } from '../../../src/slack/tasks/ids.js';
import { parseTaskFilter, TASKS_PAGE_SIZE, tasksListMessage } from '../../../src/slack/tasks/list.js';

const coords = { teamId: 'team1', channelId: 'chan1', featureId: 'feat1', taskId: 'task1' };
const task = (over: Partial<TaskView> = {}): TaskView => ({
  coords,
  heading: 'Ship <!channel> & friends',
  state: 'idle',
  ...over,
});
const json = (v: unknown) => JSON.stringify(v);

describe('state buttons', () => {
  it('move forward and back along the service states, carrying what the card showed', () => {
    const labels = Object.fromEntries(
      TASK_STATES.map((state) => [state, taskStateButtons(task({ state })).map((b) => b.text.text)]),
    );
    expect(labels).toEqual({
      idle: ['Start'],
      'in progress': ['Send to review', 'Back to idle'],
      'in review': ['Mark done', 'Back to work'],
      done: ['Reopen'],
    });
    const [forward, back] = taskStateButtons(task({ state: 'in review', assigneeUserId: 'p2' }));
    expect(forward?.action_id).toBe(TASK_ACTION.stateForward);
    expect(back?.action_id).toBe(TASK_ACTION.stateBack);
    expect(JSON.parse(forward!.value!)).toEqual({ ...coords, s: 'in review', a: 'p2', to: 'done' });
    expect(JSON.parse(taskStateButtons(task(), { list: true })[0]!.value!)).toMatchObject({ l: 1 });
  });

  it('a press compares state and assignee, and says what changed', () => {
    expect(taskShown(task({ assigneeUserId: 'p1' }))).toEqual({ state: 'idle', assignee: 'p1' });
    expect(describeTaskChange({ state: 'idle', assignee: '' }, { state: 'done', assignee: 'p1' }).text).toBe(
      'it is now *done* (it was *idle*) and its assignee changed',
    );
  });
});

describe('the live card', () => {
  it("links to the task's page in the web app when the view has one, and only then", () => {
    const url = 'https://plan.example.com/t/team1/k/task1';
    expect(json(liveTaskCard(task({ openUrl: url })).blocks)).toContain(`<${url}|Open in Team Planning>`);
    expect(json(liveTaskCard(task()).blocks)).not.toContain('Open in Team Planning');
  });

  const card = liveTaskCard(
    task({
      featureHeading: 'Login <b>',
      assigneeSlackId: 'U2',
      assigneeUserId: 'p2',
      authorSlackId: 'U1',
      minutes: { discoveries: 3, answered: 1, waiting: 2 },
    }),
  );

  it('shows heading, feature, state, assignee, author and counts, with user text escaped', () => {
    const text = json(card.blocks);
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('&lt;!channel&gt; &amp; friends');
    expect(text).toContain('Feature: Login &lt;b&gt;');
    expect(text).toContain('assigned to <@U2>');
    expect(text).toContain('created by <@U1>');
    expect(text).toContain('3 discoveries · 3 feedback (1 answered, 2 waiting)');
  });

  it("has every button of the task, each carrying the task; a shared card's Delete has no dialog of its own (the app asks who may delete)", () => {
    const buttons = card.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : [])) as unknown as {
      action_id: string;
      confirm?: unknown;
    }[];
    expect(buttons.map((b) => b.action_id)).toEqual([
      TASK_ACTION.stateForward,
      TASK_ACTION.assignOpen,
      TASK_ACTION.feedbackOpen,
      TASK_ACTION.discoveryOpen,
      TASK_ACTION.detailsOpen,
      TASK_ACTION.editOpen,
      TASK_ACTION.deleteAsk,
      ACTION.profileOpen,
    ]);
    // The assignee's planning profile carries who they are in Slack.
    expect(buttons.at(-1)).toMatchObject({ value: 'U2' });
    expect(buttons.find((b) => b.action_id === TASK_ACTION.deleteAsk)?.confirm).toBeUndefined();
    // One person's card (a list's row): Delete with Slack's dialog for who may delete, none for others.
    const actionsOf = (body: ReturnType<typeof liveTaskCard>) =>
      body.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : [])) as unknown as typeof buttons;
    const mine = actionsOf(liveTaskCard(task(), { deletes: true }));
    expect(mine.find((b) => b.action_id === TASK_ACTION.delete)?.confirm).toBeDefined();
    expect(mine.some((b) => b.action_id === TASK_ACTION.deleteAsk)).toBe(false);
    const theirs = actionsOf(liveTaskCard(task(), { deletes: false }));
    expect(
      theirs.some((b) => b.action_id === TASK_ACTION.delete || b.action_id === TASK_ACTION.deleteAsk),
    ).toBe(false);
    expect(taskCoordsFromMessage(card)).toEqual(coords);
    expect(taskCoordsFromMessage({ blocks: card.blocks.filter((b) => b.type === 'actions') })).toEqual(
      coords,
    );
  });

  it('a heading of any length stays within Slack limits', () => {
    const long = liveTaskCard(task({ heading: 'h'.repeat(5000), featureHeading: 'f'.repeat(5000) }));
    for (const block of long.blocks) expect(json(block).length).toBeLessThan(SLACK_LIMITS.sectionText + 2000);
  });
});

describe('Details', () => {
  const entry = (i: number, own = false): MinuteEntry => ({
    kind: i % 2 ? 'discovery' : 'feedback',
    id: `e${i}`,
    iat: 1_700_000_000 + i,
    iteration: 1,
    authorSlackId: 'U2',
    own,
    text: `entry ${i} ${'x'.repeat(600)}`,
    ...(i % 4 === 0 ? { reply: 'ok' } : {}),
  });

  it('stays within 100 blocks however long the minutes get, newest first, saying how many are left out', () => {
    const entries = Array.from({ length: 300 }, (_, i) => entry(i, i % 3 === 0));
    const view = taskDetailsModal({ ...task(), details: 'd'.repeat(3000), notions: ['TypeScript'], entries });
    expect(view.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.modalBlocks);
    const text = json(view.blocks);
    expect(text).toContain('entry 299');
    expect(text).not.toContain('entry 0 ');
    expect(text).toMatch(/…and \d+ older not shown\./);
    for (const block of view.blocks) {
      const b = block as { type: string; text?: { text: string } };
      if (b.type === 'section') expect(b.text?.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    }
  });

  it("offers Edit and Delete on the viewer's own entries only, and times in the viewer's zone", () => {
    const view = taskDetailsModal({ ...task(), notions: [], entries: [entry(1, true), entry(2)] });
    const buttons = (view.blocks as { type: string; elements?: unknown[] }[]).flatMap((b) =>
      b.type === 'actions' ? (b.elements ?? []) : [],
    ) as { action_id: string; value: string }[];
    expect(buttons.map((b) => b.action_id)).toEqual([TASK_ACTION.minuteEditOpen, TASK_ACTION.minuteDelete]);
    expect(JSON.parse(buttons[0]!.value)).toEqual({ ...coords, k: 'd', id: 'e1' });
    expect(json(view.blocks)).toContain('<!date^1700000001^');
    expect(json(taskDetailsModal({ ...task(), notions: [], entries: [] }).blocks)).toContain(
      'No discoveries or feedback yet.',
    );
  });
});

describe('Assign…', () => {
  it('says the fit in plain language: great 90+, good 40+', () => {
    expect([95, 90, 89.9, 40, 39, undefined].map(fitLabel)).toEqual([
      'great fit',
      'great fit',
      'good fit',
      'good fit',
      'weak fit',
      'fit unknown',
    ]);
    expect(candidateOption({ userId: 'p1', userName: 'Ana', ydScore: 92.4, userFeatures: 1 }).text.text).toBe(
      'Ana — great fit (92) · 1 feature on their plate',
    );
  });

  it('ranks candidates best first after "Assign to me", then "someone else", within 100 options', () => {
    const candidates = Array.from({ length: 150 }, (_, i) => ({
      userId: `p${i}`,
      userName: `n${i}`,
      ydScore: i % 100,
    }));
    const view = assignModal({ coords, heading: 'x', candidates });
    const select = view.blocks.find((b) => b.type === 'input') as {
      element: { options: { value: string }[] };
    };
    expect(select.element.options).toHaveLength(100);
    const scores = select.element.options
      .slice(1, -1)
      .map((o) => candidates.find((c) => c.userId === o.value)!.ydScore);
    expect(select.element.options[0]?.value).toBe('me');
    expect(select.element.options.at(-1)?.value).toBe('someone');
    expect(scores[0]).toBe(99);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});

describe('/plan tasks', () => {
  it('reads its filter', () => {
    expect(parseTaskFilter('')).toEqual({ kind: 'all' });
    expect(parseTaskFilter(' Mine ')).toEqual({ kind: 'mine' });
    expect(parseTaskFilter('review')).toEqual({ kind: 'review' });
    expect(parseTaskFilter('unassigned')).toEqual({ kind: 'unassigned' });
    expect(parseTaskFilter('login  page')).toEqual({ kind: 'words', words: 'login page' });
  });

  it('pages within 50 blocks, with More until the last page', () => {
    const tasks = Array.from({ length: 95 }, (_, i) =>
      task({ heading: `t${i}`, coords: { ...coords, taskId: `t${i}` } }),
    );
    const first = tasksListMessage(tasks, { kind: 'all' }, 1, '');
    expect(first.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.messageBlocks);
    expect(json(first.blocks)).toContain(TASK_ACTION.more);
    const last = tasksListMessage(tasks, { kind: 'all' }, Math.ceil(95 / TASKS_PAGE_SIZE), '');
    expect(json(last.blocks)).not.toContain(TASK_ACTION.more);
    expect(json(last.blocks)).toContain('t94');
    expect(tasksListMessage([], { kind: 'review' }, 1, 'review').text).toBe('*Tasks in review*: none.');
  });
});

describe('prefill and refusals', () => {
  it('a discovery keeps the permalink within 512 characters', () => {
    const permalink = 'https://team.slack.example/archives/C1/p1234567890';
    const text = prefillDiscovery('word '.repeat(400), permalink);
    expect(Array.from(text).length).toBeLessThanOrEqual(512);
    expect(text.endsWith(`…\n\n${permalink}`)).toBe(true);
    expect(prefillDiscovery('a &amp; b')).toBe('a & b');
  });

  it("a 403 names the service's rule, unless it names none", () => {
    const ctx = { operation: 'tasks.update', method: 'POST' as const, path: '/x', status: 403 };
    const refused = (said: string) =>
      refusal(
        new ForbiddenError(`tasks.update: ${said} (HTTP 403 not-allowed)`, { ...ctx, serviceMessage: said }),
      ).text;
    expect(refused('Features in deep context are read-only')).toBe(
      'The planning service refused: Features in deep context are read-only. Nothing was changed.',
    );
    expect(refused('Not allowed')).toContain('your role does not allow it');
    expect(refusal(new ForbiddenError('tasks.update: (HTTP 403)', ctx)).text).toContain(
      'your role does not allow it',
    );
  });

  it('a 404 says what the service did not find in the organization, never that it was deleted', () => {
    const ctx = { operation: 'tasks.read', method: 'GET' as const, path: '/x', status: 404 };
    const notFound = (said?: string) =>
      notFoundSentence(
        new NotFoundError('tasks.read: (HTTP 404 not-found)', {
          ...ctx,
          ...(said ? { serviceMessage: said } : {}),
        }),
      ).text;
    // Another organization's task: its team is the first thing not found there.
    expect(notFound('Team not found')).toBe(
      'The planning service found no such team in your organization, so nothing was changed.',
    );
    expect(notFound('Task not found')).toContain('no such task in your organization');
    expect(notFound()).toBe(
      'The planning service did not find that in your organization, so nothing was changed.',
    );
    expect(notFound('<!channel> gone')).not.toContain('channel');
  });
});
