/**
 * Forms declared once (kit/form.ts), alone: each kind of input read from a submitted modal's state,
 * errors on their own block (suffixed block ids included), rules across inputs on the input they
 * name, the private_metadata's errors on the field it declares, and the data's type inferred from
 * the declaration. (Every real form, end to end through signed requests: the topic tests.)
 */
import type { ViewStateValue } from '@slack/bolt';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type FormOutput, form, headingText, read, type StateValues } from '../../../src/slack/kit/form.js';
import { field } from '../../../src/slack/kit/ids.js';
import { parseCarried, parseJson } from '../../../src/slack/kit/round-trip.js';

const NAME = field('name');
const KIND = field('kind');
const TEAM = { block: 'team', action: 'team_picked' };
const CHANNEL = field('channel');
const PEOPLE = field('people');
const TAGS = field('tags');
const OPTIONS = field('options');
const COUNT = field('count');

const state = (blocks: Record<string, Record<string, Partial<ViewStateValue>>>): StateValues =>
  Object.fromEntries(
    Object.entries(blocks).map(([block, actions]) => [
      block,
      Object.fromEntries(
        Object.entries(actions).map(([action, v]) => [action, { type: 'x', ...v } as ViewStateValue]),
      ),
    ]),
  );

const opt = (value: string, text: string) => ({
  value,
  text: { type: 'plain_text' as const, text, emoji: true },
});

describe('reading each kind of input', () => {
  const Everything = form({
    name: read.value(NAME, z.string().optional()),
    kindId: read.value(KIND, z.string().optional()),
    kindName: read.label(KIND, z.string().optional()),
    kind: read.option(KIND, z.object({ value: z.string(), label: z.string() }).optional()),
    people: read.users(PEOPLE, z.array(z.string())),
    tags: read.values(TAGS, z.array(z.string())),
    tagNames: read.options(TAGS, z.array(z.object({ value: z.string(), label: z.string() }))),
    weekly: read.checked(OPTIONS, 'weekly'),
    daily: read.checked(OPTIONS, 'daily'),
    count: read.number(COUNT, z.number().optional()),
    meta: read.metadata(NAME, z.object({ id: z.string() })),
  });

  it('reads values, labels, options, people, checkboxes, numbers and the private_metadata', () => {
    const values = state({
      name: { name_input: { value: 'Ship it' } },
      kind: { kind_input: { selected_option: opt('k1', 'Bug') } },
      people: { people_input: { selected_users: ['U1', 'U2'] } },
      tags: { tags_input: { selected_options: [opt('t1', 'One'), opt('t2', 'Two')] } },
      options: { options_input: { selected_options: [opt('weekly', 'Weekly')] } },
      count: { count_input: { value: '12' } },
    });
    const parsed = Everything.parse(values, JSON.stringify({ id: 'x', extra: 1 }));
    expect(parsed).toEqual({
      ok: true,
      data: {
        name: 'Ship it',
        kindId: 'k1',
        kindName: 'Bug',
        kind: { value: 'k1', label: 'Bug' },
        people: ['U1', 'U2'],
        tags: ['t1', 't2'],
        tagNames: [
          { value: 't1', label: 'One' },
          { value: 't2', label: 'Two' },
        ],
        weekly: true,
        daily: false,
        count: 12,
        meta: { id: 'x' },
      },
    });
  });

  it('reads an empty form as nothing chosen: undefined, [] and false', () => {
    const values = state({
      name: { name_input: { value: '' } },
      kind: { kind_input: { selected_option: null } },
    });
    expect(Everything.input(values, '')).toEqual({
      name: undefined,
      kindId: undefined,
      kindName: undefined,
      kind: undefined,
      people: [],
      tags: [],
      tagNames: [],
      weekly: false,
      daily: false,
      count: undefined,
      meta: undefined,
    });
  });

  it('reads a field whose block id carries a suffix, and the metadata when it is not JSON', () => {
    const values = state({ 'channel|T1': { channel_input: { selected_option: opt('C1', 'general') } } });
    const Channel = form({
      channelId: read.value(CHANNEL, z.string()),
      channelName: read.label(CHANNEL, z.string()),
      meta: read.metadata(CHANNEL, z.unknown()),
    });
    expect(Channel.input(values, '{not json')).toEqual({
      channelId: 'C1',
      channelName: 'general',
      meta: undefined,
    });
  });

  it('maps a value with the private_metadata: the metadata first, else the field', () => {
    const linked = (text: string) => (parseJson(text) as { teamId?: string } | undefined)?.teamId;
    const Team = form({
      teamId: read.value(TEAM, z.string({ error: 'Choose a team.' }), {
        map: (picked, meta) => linked(meta) ?? picked,
      }),
    });
    const picked = state({ team: { team_picked: { selected_option: opt('T2', 'Picked') } } });
    expect(Team.parse(picked, JSON.stringify({ teamId: 'T1' }))).toEqual({
      ok: true,
      data: { teamId: 'T1' },
    });
    expect(Team.parse(picked, '')).toEqual({ ok: true, data: { teamId: 'T2' } });
    expect(Team.parse(state({}), '')).toEqual({ ok: false, errors: { team: 'Choose a team.' } });
  });
});

describe('errors on their blocks', () => {
  const Named = form({
    meta: read.metadata(NAME, z.object({ id: z.string() }, { error: 'This form is too old.' })),
    name: read.value(NAME, z.string({ error: 'Write a name.' }).trim().min(2, 'At least 2 characters.')),
    channel: read.value(CHANNEL, z.string({ error: 'Choose a channel.' })),
    count: read.number(COUNT, z.number({ error: 'A number.' }).int('A whole number.').optional()),
  });

  it('puts each error on its block, the suffixed one as Slack knows it', () => {
    const values = state({
      name: { name_input: { value: 'x' } },
      'channel|T9': { channel_input: { selected_option: null } },
      count: { count_input: { value: 'many' } },
    });
    expect(Named.parse(values, JSON.stringify({ id: '1' }))).toEqual({
      ok: false,
      errors: { name: 'At least 2 characters.', 'channel|T9': 'Choose a channel.', count: 'A number.' },
    });
  });

  it('says a bad private_metadata on the field it declares, and only the first error of a block', () => {
    const values = state({
      name: { name_input: { value: 'x' } },
      channel: { channel_input: { selected_option: opt('C1', 'general') } },
    });
    // The metadata comes first: its error, not the name's, shows on the name's block.
    expect(Named.parse(values, 'not json')).toEqual({ ok: false, errors: { name: 'This form is too old.' } });
    expect(Named.parse(values, JSON.stringify({ id: '1' }))).toEqual({
      ok: false,
      errors: { name: 'At least 2 characters.' },
    });
  });

  it('reads the metadata as its input says (a carried value, undefined when malformed)', () => {
    const Meta = z.object({ ch: z.string() });
    const Carried = form({
      channel: read.metadata(TEAM, z.string().min(1), (text) => parseCarried(Meta, text)?.ch),
    });
    expect(Carried.parse(state({}), JSON.stringify({ ch: 'C1' }))).toEqual({
      ok: true,
      data: { channel: 'C1' },
    });
    const broken = Carried.parse(state({}), JSON.stringify({ ch: 7 }));
    expect(broken.ok ? undefined : Object.keys(broken.errors)).toEqual(['team']);
  });

  it('says one message for every error of an input that declares it', () => {
    const Task = form({
      coords: read.value(field('task'), z.object({ id: z.string() }), {
        map: (value) => (value ? { id: value.split('|')[1] } : undefined),
        message: 'Choose a task.',
      }),
    });
    const picked = (value: string) => state({ task: { task_input: { selected_option: opt(value, value) } } });
    expect(Task.parse(picked('f|t'))).toEqual({ ok: true, data: { coords: { id: 't' } } });
    expect(Task.parse(picked('f'))).toEqual({ ok: false, errors: { task: 'Choose a task.' } });
    expect(Task.parse(state({}))).toEqual({ ok: false, errors: { task: 'Choose a task.' } });
  });
});

describe('rules across inputs', () => {
  const Share = form(
    {
      channel: read.value(CHANNEL, z.string().optional()),
      person: read.value(PEOPLE, z.string().optional()),
    },
    {
      refine: (o) =>
        o.refine((v) => Boolean(v.channel) !== Boolean(v.person), {
          path: ['person'],
          message: 'One of them.',
        }),
    },
  );

  it('shows a refinement on the input its path names', () => {
    expect(Share.parse(state({}))).toEqual({ ok: false, errors: { people: 'One of them.' } });
    const both = state({
      channel: { channel_input: { selected_option: opt('C1', 'c') } },
      people: { people_input: { selected_user: 'U1' } },
    });
    expect(Share.parse(both)).toEqual({ ok: false, errors: { people: 'One of them.' } });
    const one = state({ people: { people_input: { selected_user: 'U1' } } });
    expect(Share.parse(one)).toEqual({ ok: true, data: { channel: undefined, person: 'U1' } });
  });

  it('shows an issue naming no input on the first input’s block', () => {
    const Whole = form(
      { name: read.value(NAME, z.string().optional()), count: read.number(COUNT, z.number().optional()) },
      {
        refine: (o) =>
          o.superRefine((_v, ctx) => {
            ctx.addIssue({ code: 'custom', message: 'Nothing fits.' });
          }),
      },
    );
    expect(Whole.parse(state({}))).toEqual({ ok: false, errors: { name: 'Nothing fits.' } });
  });

  it('keeps the refinement’s output type', () => {
    expectTypeOf(Share.parse).returns.toEqualTypeOf<
      | { ok: true; data: { channel?: string | undefined; person?: string | undefined } }
      | {
          ok: false;
          errors: Record<string, string>;
        }
    >();
  });
});

describe('types flow from the declaration', () => {
  const Typed = form({
    heading: read.value(NAME, z.string().trim().min(1)),
    details: read.value(field('details'), z.string().optional()),
    count: read.value(COUNT, z.coerce.number()),
    weekly: read.checked(OPTIONS, 'weekly'),
    people: read.users(PEOPLE, z.array(z.string())),
    meta: read.metadata(TEAM, z.object({ teamId: z.string() })),
    picked: read.option(KIND, z.object({ value: z.string(), label: z.string() }).optional(), {
      map: (o) => o && { id: o.value },
    }),
  });

  it('infers the data and the raw input', () => {
    type Data = FormOutput<typeof Typed>;
    expectTypeOf<Data>().toEqualTypeOf<{
      heading: string;
      details?: string | undefined;
      count: number;
      weekly: boolean;
      people: string[];
      meta: { teamId: string };
      picked?: { value: string; label: string } | undefined;
    }>();
    const typed = Typed.input(state({}));
    expectTypeOf(typed.heading).toEqualTypeOf<string | undefined>();
    expectTypeOf(typed.weekly).toEqualTypeOf<boolean>();
    expectTypeOf(typed.people).toEqualTypeOf<string[]>();
    expectTypeOf(typed.meta).toEqualTypeOf<unknown>();
    expectTypeOf(typed.picked).toEqualTypeOf<{ id: string } | undefined>();
    const parsed = Typed.parse(state({}), '');
    if (parsed.ok) {
      // @ts-expect-error: the data has only what the form declares
      parsed.data.title;
      expectTypeOf(parsed.data.count).toEqualTypeOf<number>();
    }
  });
});

describe('required text that shows nothing', () => {
  it('is refused as a heading; real text with such characters inside is kept as typed', () => {
    const heading = headingText('Write a heading.');
    expect(heading.safeParse('\u200b\u200b\u200b').error?.issues[0]?.message).toBe('Write a heading.');
    expect(heading.parse(' Sign\u200din \u200fnow ')).toBe('Sign\u200din \u200fnow');
  });
});
