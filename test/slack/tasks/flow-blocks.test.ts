import { describe, expect, it } from 'vitest';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { liveTaskCard, parseCoords, taskCoordsFromMessage } from '../../../src/slack/tasks/card.js';
import { createTaskModal } from '../../../src/slack/tasks/create.js';
import { TASK_CARD_EVENT, TASK_FIELD } from '../../../src/slack/tasks/ids.js';

const coords = { teamId: 'team1', channelId: 'chan1', featureId: 'feat1', taskId: 'task1' };
const json = (value: unknown) => JSON.stringify(value);

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
