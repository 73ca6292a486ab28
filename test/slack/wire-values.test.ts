/**
 * Values carried through Slack keep their short keys on the wire (wire-ids.test.ts freezes their
 * shape) while code reads and writes named fields. For each: a value as the app posted it before
 * the names existed still parses, into the named fields; writing the named value gives the same
 * wire value back; and what Slack could hand back malformed is still refused.
 */
import { describe, expect, it } from 'vitest';
import {
  AdminPlace,
  FormRequest,
  placeValue,
  shortName,
  Target,
  targetValue,
} from '../../src/slack/admin/common.js';
import { FormMeta } from '../../src/slack/admin/form-common.js';
import { parseCarried, toCheckedWire, toWire } from '../../src/slack/kit/round-trip.js';
import { LinkMeta } from '../../src/slack/link/blocks.js';
import { pressValue, TaskButton } from '../../src/slack/tasks/card.js';
import { MinuteRef } from '../../src/slack/tasks/details.js';
import { DiscoveryMeta } from '../../src/slack/tasks/discovery.js';
import { TasksMore } from '../../src/slack/tasks/list.js';

const coords = { teamId: 'team-1', channelId: 'chan-1', featureId: 'feat-1', taskId: 'task-1' };

/** Each value: as posted before (the wire JSON), and as code now reads it. */
const CASES = [
  {
    name: 'AdminPlace (a channel view, searched, page 2)',
    schema: AdminPlace,
    posted: '{"s":"channel","p":2,"q":"ty","t":"team-1","c":"chan-1"}',
    named: { section: 'channel', page: 2, search: 'ty', teamId: 'team-1', channelId: 'chan-1' },
  },
  {
    name: 'AdminPlace (a section, first page)',
    schema: AdminPlace,
    posted: '{"s":"people","p":1}',
    named: { section: 'people', page: 1 },
  },
  {
    name: 'Target (a channel member)',
    schema: Target,
    posted: '{"id":"user-9","t":"team-1","c":"chan-1","n":"Ana Lima"}',
    named: { id: 'user-9', teamId: 'team-1', channelId: 'chan-1', name: 'Ana Lima' },
  },
  {
    name: 'FormRequest (rename a channel)',
    schema: FormRequest,
    posted: '{"f":"renameChannel","t":"team-1","c":"chan-1","n":"Platform"}',
    named: { form: 'renameChannel', teamId: 'team-1', channelId: 'chan-1', name: 'Platform' },
  },
  {
    name: 'FormMeta (an edited invitation, from page 3 of invitations)',
    schema: FormMeta,
    posted: '{"f":"editInvite","id":"inv-1","n":"Spring interns","v":"V123","at":{"s":"invitations","p":3}}',
    named: {
      form: 'editInvite',
      id: 'inv-1',
      name: 'Spring interns',
      parentViewId: 'V123',
      parentPlace: { section: 'invitations', page: 3 },
    },
  },
  {
    name: 'FormMeta (opened without a section view)',
    schema: FormMeta,
    posted: '{"f":"newTeam"}',
    named: { form: 'newTeam' },
  },
  {
    name: 'TaskPress (a state button in a /plan tasks list)',
    schema: TaskButton,
    posted:
      '{"teamId":"team-1","channelId":"chan-1","featureId":"feat-1","taskId":"task-1","s":"in review","a":"user-9","to":"done","l":1}',
    named: { coords, shown: { state: 'in review', assignee: 'user-9' }, to: 'done', inList: true },
  },
  {
    name: 'TaskPress (Assign… on a card, unassigned)',
    schema: TaskButton,
    posted:
      '{"teamId":"team-1","channelId":"chan-1","featureId":"feat-1","taskId":"task-1","s":"idle","a":""}',
    named: { coords, shown: { state: 'idle', assignee: '' }, inList: false },
  },
  {
    name: 'TasksMore',
    schema: TasksMore,
    posted: '{"q":"mine","p":2}',
    named: { query: 'mine', page: 2 },
  },
  {
    name: 'MinuteRef (a feedback entry)',
    schema: MinuteRef,
    posted:
      '{"teamId":"team-1","channelId":"chan-1","featureId":"feat-1","taskId":"task-1","k":"f","id":"fb-1"}',
    named: { coords, kind: 'feedback', id: 'fb-1' },
  },
  {
    name: 'MinuteRef (a discovery)',
    schema: MinuteRef,
    posted:
      '{"teamId":"team-1","channelId":"chan-1","featureId":"feat-1","taskId":"task-1","k":"d","id":"d-1"}',
    named: { coords, kind: 'discovery', id: 'd-1' },
  },
  {
    name: 'DiscoveryMeta (for a task)',
    schema: DiscoveryMeta,
    posted: '{"c":{"teamId":"team-1","channelId":"chan-1","featureId":"feat-1","taskId":"task-1"}}',
    named: { task: coords },
  },
  {
    name: 'DiscoveryMeta (a linked channel to pick from)',
    schema: DiscoveryMeta,
    posted: '{"l":{"teamId":"team-1","channelId":"chan-1"}}',
    named: { planningChannel: { teamId: 'team-1', channelId: 'chan-1' } },
  },
  {
    name: 'LinkMeta',
    schema: LinkMeta,
    posted: '{"ch":"C0123"}',
    named: { slackChannelId: 'C0123' },
  },
] as const;

describe('named wire schemas', () => {
  for (const { name, schema, posted, named } of CASES) {
    it(`${name}: an old value parses into named fields, and writing gives it back`, () => {
      const read = parseCarried(schema, posted);
      expect(read).toEqual(named);
      const written = toWire(schema as { toWire(value: unknown): unknown }, read);
      expect(JSON.parse(written)).toEqual(JSON.parse(posted));
      // Written values are read back by the frozen wire schema itself.
      expect(schema.in.safeParse(JSON.parse(written)).success).toBe(true);
    });
  }

  it('an old page value without its page reads as page 1, as it did', () => {
    expect(parseCarried(AdminPlace, '{"s":"teams"}')).toEqual({ section: 'teams', page: 1 });
  });

  it('what Slack hands back malformed is still refused', () => {
    expect(parseCarried(AdminPlace, '{"s":"everything","p":1}')).toBeUndefined();
    expect(parseCarried(Target, '{"t":"team-1"}')).toBeUndefined();
    expect(parseCarried(FormRequest, '{"f":"dropDatabase"}')).toBeUndefined();
    expect(
      parseCarried(
        TaskButton,
        '{"teamId":"t","channelId":"c","featureId":"f","taskId":"k","s":"lost","a":""}',
      ),
    ).toBeUndefined();
    expect(parseCarried(TasksMore, '{"q":"mine","p":0}')).toBeUndefined();
    expect(
      parseCarried(MinuteRef, '{"teamId":"t","channelId":"c","featureId":"f","taskId":"k","k":"x","id":"1"}'),
    ).toBeUndefined();
    expect(parseCarried(LinkMeta, '{"ch":""}')).toBeUndefined();
    expect(parseCarried(LinkMeta, 'not json')).toBeUndefined();
  });

  it('the app writes the values the old code wrote', () => {
    const task = { coords, heading: 'Ship it', state: 'in progress' as const, assigneeUserId: 'user-9' };
    expect(JSON.parse(pressValue(task, { to: 'in review', list: true }))).toEqual({
      ...coords,
      s: 'in progress',
      a: 'user-9',
      to: 'in review',
      l: 1,
    });
    expect(JSON.parse(pressValue({ ...task, assigneeUserId: undefined }))).toEqual({
      ...coords,
      s: 'in progress',
      a: '',
    });
    expect(JSON.parse(placeValue({ section: 'team', page: 1, teamId: 'team-1' }))).toEqual({
      s: 'team',
      p: 1,
      t: 'team-1',
    });
    expect(JSON.parse(targetValue({ id: 'inv-1', name: 'Interns' }))).toEqual({ id: 'inv-1', n: 'Interns' });
    expect(JSON.parse(toCheckedWire(LinkMeta, { slackChannelId: 'C1' }))).toEqual({ ch: 'C1' });
    expect(() => toCheckedWire(LinkMeta, { slackChannelId: '' })).toThrow();
  });

  it('a long name full of emoji, carried in a button, still parses when pressed', () => {
    const name = shortName('🎉'.repeat(70));
    const value = targetValue({ id: 'team-1', name });
    expect(parseCarried(Target, value)?.name).toBe('🎉'.repeat(40));
    expect(
      parseCarried(FormRequest, toWire(FormRequest, { form: 'renameTeam', teamId: 'team-1', name })),
    ).toBeDefined();
  });
});
