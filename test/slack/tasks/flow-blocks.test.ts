import { describe, expect, it } from 'vitest';
import { md } from '../../../src/blockkit/index.js';
import { FEEDBACK_ISSUES } from '../../../src/planning/models.js';
import { FeedbackRef, feedbackDm, feedbackModal, replyDm } from '../../../src/slack/feedback/blocks.js';
import { FEEDBACK_ACTION } from '../../../src/slack/feedback/ids.js';
import { GRADE_RULES, gradeModal } from '../../../src/slack/grades/blocks.js';
import { GRADE_FIELD } from '../../../src/slack/grades/ids.js';
import { helpMessage } from '../../../src/slack/kit/help.js';
import { ACTION, FIELD } from '../../../src/slack/kit/ids.js';
import { notConnectedMessage } from '../../../src/slack/kit/messages.js';
import { prefillTask, slackTextToPlain } from '../../../src/slack/kit/slack-text.js';
import { linkModal } from '../../../src/slack/link/blocks.js';
import { liveTaskCard, parseCoords, taskCoordsFromMessage } from '../../../src/slack/tasks/card.js';
import { createTaskModal } from '../../../src/slack/tasks/create.js';
import { TASK_CARD_EVENT, TASK_FIELD } from '../../../src/slack/tasks/ids.js';

const coords = { teamId: 'team1', channelId: 'chan1', featureId: 'feat1', taskId: 'task1' };
const json = (value: unknown) => JSON.stringify(value);

describe('prefill from a message', () => {
  it('takes the first non-empty line as heading and decodes Slack entities and links', () => {
    const text = '\n  Fix &lt;login&gt; &amp; signup  \nsee <https://x.example/a|the doc> and <@U1>';
    expect(slackTextToPlain(text)).toContain('see the doc and @U1');
    const { heading, details } = prefillTask(text, 'https://slack.example/p1');
    expect(heading).toBe('Fix <login> & signup');
    expect(details).toBe('Fix <login> & signup  \nsee the doc and @U1\n\nhttps://slack.example/p1');
  });

  it('cuts the heading to 200 with an ellipsis', () => {
    const { heading } = prefillTask('h'.repeat(500));
    expect(Array.from(heading)).toHaveLength(200);
    expect(heading.endsWith('…')).toBe(true);
  });

  it('keeps details within 2048 and always keeps the permalink', () => {
    const permalink = 'https://team.slack.example/archives/C1/p1234567890';
    const { details } = prefillTask(`${'word '.repeat(1000)}`, permalink);
    expect(Array.from(details).length).toBeLessThanOrEqual(2048);
    expect(details.endsWith(`…\n\n${permalink}`)).toBe(true);
  });

  it('names a task from an empty message', () => {
    expect(prefillTask('   ', 'https://p').heading).toBe('Task from a Slack message');
  });
});

describe('task card', () => {
  const card = liveTaskCard({
    coords,
    heading: 'Ship <!channel> & friends',
    featureHeading: 'Login <b>',
    state: 'idle',
    assigneeSlackId: 'U2',
    authorSlackId: 'U1',
  });

  it('escapes user text so a heading cannot ping the channel', () => {
    const text = json(card.blocks);
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('&lt;!channel&gt; &amp; friends');
    expect(text).toContain('Login &lt;b&gt;');
    expect(text).toContain('<@U2>');
  });

  it('carries its coordinates in metadata, block id and button — each enough on its own', () => {
    expect(card.metadata).toEqual({ event_type: TASK_CARD_EVENT, event_payload: coords });
    expect(taskCoordsFromMessage(card)).toEqual(coords);
    expect(taskCoordsFromMessage({ blocks: card.blocks })).toEqual(coords);
    const onlyButton = card.blocks.filter((b) => b.type === 'actions');
    expect(taskCoordsFromMessage({ blocks: onlyButton })).toEqual(coords);
  });

  it('finds no task in an ordinary message', () => {
    expect(taskCoordsFromMessage({ blocks: [{ type: 'section', block_id: 'abc' }] })).toBeUndefined();
    expect(
      taskCoordsFromMessage({ metadata: { event_type: 'other', event_payload: coords } }),
    ).toBeUndefined();
    expect(taskCoordsFromMessage(undefined)).toBeUndefined();
    expect(parseCoords('not json')).toBeUndefined();
    expect(parseCoords(json({ teamId: 't' }))).toBeUndefined();
  });
});

describe('create-task modal', () => {
  const meta = { channel: 'C1', threadTs: '1.2' };

  it('offers team then channel selects when the Slack channel has no link', () => {
    const noTeam = createTaskModal({
      meta,
      teams: [{ id: 't1', teamName: 'Core' }],
      heading: 'h',
      details: 'd',
    });
    expect(noTeam.blocks.map((b) => b.block_id)).toEqual([
      FIELD.team.block,
      TASK_FIELD.feature.block,
      FIELD.heading.block,
      FIELD.details.block,
      TASK_FIELD.assignee.block,
    ]);
    const withTeam = createTaskModal({
      meta,
      teams: [{ id: 't1', teamName: 'Core' }],
      teamId: 't1',
      channels: [{ id: 'c1', channelName: 'general', isDefault: true }],
      heading: 'h',
      details: 'd',
    });
    expect(withTeam.blocks.map((b) => b.block_id)).toContain(`${FIELD.channel.block}|t1`);
  });

  it('shows the link instead when there is one, and keeps ids only in private_metadata', () => {
    const view = createTaskModal({
      meta: { ...meta, link: { teamId: 't', channelId: 'c' } },
      linkedTo: 'Core › general',
      heading: 'Secret heading',
      details: 'Secret details',
    });
    expect(view.blocks.map((b) => b.block_id)).not.toContain(FIELD.team.block);
    expect(view.private_metadata).not.toContain('Secret');
    expect(JSON.parse(view.private_metadata!)).toEqual({ ...meta, link: { teamId: 't', channelId: 'c' } });
  });
});

describe('feedback', () => {
  it('lists the eight issue types and limits the message to 512', () => {
    const view = feedbackModal({ coords });
    const text = json(view.blocks);
    expect(FEEDBACK_ISSUES).toHaveLength(8);
    for (const issue of FEEDBACK_ISSUES) {
      expect(text).toContain(`"value":"${issue}"`);
    }
    expect(text).toContain('"max_length":512');
  });

  it('sends the assignee an escaped DM whose Reply button addresses the feedback', () => {
    const ref = { ...coords, feedbackId: 'fb1' };
    const dm = feedbackDm({ ref, authorSlackId: 'U1', message: 'a <!here> b\nline 2', issue: 'testing' });
    const text = json(dm.blocks);
    expect(text).not.toContain('<!here>');
    expect(text).toContain('&lt;!here&gt;');
    const buttonBlock = dm.blocks.find((b) => b.type === 'actions') as {
      elements: { action_id: string; value: string }[];
    };
    expect(buttonBlock.elements[0]!.action_id).toBe(FEEDBACK_ACTION.replyOpen);
    expect(FeedbackRef.parse(JSON.parse(buttonBlock.elements[0]!.value))).toEqual(ref);
    expect(json(replyDm({ replierSlackId: 'U2', reply: '<script>' }).blocks)).toContain('&lt;script&gt;');
  });
});

describe('grade modal', () => {
  it('offers grades 1 to 10 and says the last grade in 24 hours counts, anonymously', () => {
    const view = gradeModal();
    const grade = view.blocks.find((b) => b.block_id === GRADE_FIELD.grade.block) as unknown as {
      element: { options: { value: string }[] };
    };
    expect(grade.element.options.map((o) => o.value)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ]);
    expect(GRADE_RULES.text).toMatch(/24 hours/);
    expect(GRADE_RULES.text).toMatch(/anonymous/);
    expect(json(view.blocks)).toContain('24 hours');
  });
});

describe('link modal', () => {
  const base = {
    slackChannelId: 'C1',
    digestTime: '09:00',
    timeZone: 'Europe/Paris',
    weekdaysOnly: true,
    digestEnabled: true,
    watchEnabled: true,
    threadDiscoveries: false,
  };

  it('caps the team select at 100 options', () => {
    const teams = Array.from({ length: 140 }, (_, i) => ({ id: `t${i}`, teamName: `Team ${i}` }));
    const view = linkModal({ ...base, teams });
    const team = view.blocks.find((b) => b.block_id === FIELD.team.block) as unknown as {
      element: { options: unknown[] };
      dispatch_action: boolean;
    };
    expect(team.element.options).toHaveLength(100);
    expect(team.dispatch_action).toBe(true);
  });

  it('prefills time and zone, and warns when there is no team', () => {
    const view = linkModal({ ...base, teams: [] });
    const text = json(view.blocks);
    expect(text).toContain('"initial_time":"09:00"');
    expect(text).toContain('"value":"Europe/Paris"');
    expect(text).toContain('no team yet');
  });

  it('does not say "no team yet" of a form sent back with a team it did not offer (another organization’s)', () => {
    const text = json(linkModal({ ...base, teams: [], teamId: 'foreign', problem: md`Not yours.` }).blocks);
    expect(text).not.toContain('no team yet');
    expect(text).toContain('Not yours.');
  });
});

describe('messages', () => {
  it('offers a Connect button when not connected, Reconnect when the token died', () => {
    expect(json(notConnectedMessage('missing').blocks)).toContain(`"action_id":"${ACTION.connectOpen}"`);
    expect(json(notConnectedMessage('invalid').blocks)).toContain('Reconnect');
  });

  it('answers an unknown subcommand with the help, escaping what was typed', () => {
    const help = helpMessage([{ usage: 'help', summary: 'this help', adminOnly: false }], 'foo<!channel>');
    expect(help.text).toContain("I don't know `/plan foo&lt;!channel&gt;`");
    expect(json(help.blocks)).toContain('`/plan help` — this help');
  });
});
