import { describe, expect, it } from 'vitest';
import { ADMIN_ACTION } from '../../../src/slack/admin/ids.js';
import { changeInWords, homeBlocks, homeTab } from '../../../src/slack/home/blocks.js';
import type { HomeSnapshot, HomeTask } from '../../../src/slack/home/snapshot.js';

const task = (i: number, state: HomeTask['state']): HomeTask => ({
  coords: { teamId: 't', channelId: 'c', featureId: 'f', taskId: `task-${i}` },
  heading: `Task ${i} <b>`,
  state,
  featureHeading: 'Feature *bold*',
  slackChannelId: 'C1',
  assigneeUserId: 'me',
});

function big(): HomeSnapshot {
  const states = ['idle', 'in progress', 'in review', 'done'] as const;
  return {
    connection: {
      state: 'connected',
      origin: 'brought',
      followsProfile: false,
      userName: 'Ana',
      orgName: 'Acme',
      role: 'member',
    },
    planning: {
      ok: true,
      value: {
        tasks: Array.from({ length: 200 }, (_, i) => task(i, states[i % 4]!)),
        features: Array.from({ length: 120 }, (_, i) => ({
          id: `f${i}`,
          heading: `Feature ${i} <&>`,
          stage: 'planning' as const,
          canAdvance: i % 2 === 0,
          mine: i % 3 === 0,
          slackChannelId: `C${i % 12}`,
          teamId: 't',
          channelId: 'c',
        })),
        unreadChannels: ['C99'],
        named: { features: {}, tasks: {} },
      },
    },
    waiting: {
      ok: true,
      value: Array.from({ length: 30 }, (_, i) => ({
        ref: { teamId: 't', channelId: 'c', featureId: 'f', taskId: `task-${i}`, feedbackId: `fb${i}` },
        taskHeading: `Task ${i}`,
        message: 'Please fix',
      })),
    },
    experiences: {
      ok: true,
      value: Array.from({ length: 40 }, (_, i) => ({
        notion: `Notion ${i}`,
        self: 5,
        peerAverage: 6.5,
        peerCount: 2,
      })),
    },
    chartFileId: 'F1',
    activity: {
      ok: true,
      value: Array.from({ length: 30 }, () => ({ type: 'tasks' as const, diff: ['state'] })),
    },
    admin: {
      links: [
        {
          workspaceId: 'T1',
          slackChannelId: 'C1',
          teamId: 't',
          channelId: 'c',
          digestTime: '09:00',
          timeZone: 'Europe/Paris',
          weekdaysOnly: true,
          digestEnabled: true,
          createdBy: 'U1',
        } as never,
      ],
    },
    timeZone: 'Europe/Paris',
    at: Date.UTC(2026, 0, 5),
  };
}

describe('homeBlocks', () => {
  it('stays within 100 blocks with "…and N more" pointers, escapes user text, and keeps the admin section', () => {
    const view = homeTab(big(), { taskControls: (t) => (t.state === 'done' ? [] : []) });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const text = JSON.stringify(view);
    expect(text).toContain('…and 45 more');
    expect(text).toContain('Task 0 &lt;b&gt;');
    expect(text).toContain('/plan grades');
    expect(text).toContain(ADMIN_ACTION.openModal);
    expect(text).toContain('"slack_file":{"id":"F1"}');
    expect(text).toContain('Could not read <#C99>');
    expect(text).toContain('Feature 0 &lt;&amp;&gt;, ');
  });

  it('renders the buttons the caller gives each task row', () => {
    const blocks = homeBlocks(big(), {
      taskControls: (t) => [
        { type: 'button', action_id: 'details', text: { type: 'plain_text', text: t.heading } },
      ],
    });
    expect(JSON.stringify(blocks)).toContain('"action_id":"details"');
  });

  it('shows one line per missing section, never an empty tab', () => {
    const s = big();
    s.planning = { ok: false, problem: 'slow' };
    s.waiting = { ok: false, problem: 'slow' };
    s.experiences = { ok: false, problem: 'failed' };
    s.activity = { ok: false, problem: 'loading' };
    const text = JSON.stringify(homeBlocks(s));
    expect(text).toContain('slow to answer');
    expect(text).toContain('could not give this part');
    expect(text).toContain('Loading…');
    expect(text).toContain('Notifications');
  });

  it('never shows who graded or when: only averages and counts', () => {
    const text = JSON.stringify(homeBlocks(big()));
    expect(text).toContain('peers *6.5* (2 grades)');
    expect(text).toContain('never who graded you or when');
  });
});

describe('what changed, in words (issue 23 item 6)', () => {
  it.each([
    ['notionIds', 'notions'],
    ['assigneeUserId', 'assignee'],
    ['experiment.details', 'experiment details'],
    ['experiment.confirmed', 'experiment confirmed'],
    ['selfEval', ''],
    ['reviewerUserId', 'reviewer'],
    ['successCriteria', 'success criteria'],
    ['toString', 'to string'],
  ])('%s → "%s"', (field, words) => {
    expect(changeInWords(field)).toBe(words);
  });
});
