/**
 * What every admin view shares: where it is (its state, carried in private_metadata), the pager,
 * the one-line result or refusal shown on top, and the values buttons carry.
 */
import type { Button, KnownBlock } from '@slack/types';
import { z } from 'zod';
import { actions, button, context, cutToLength, type Mrkdwn, md, plural } from '../../blockkit/index.js';
import { parseCarried, toWire, wireValue } from '../kit/round-trip.js';
import { ADMIN_ACTION } from './ids.js';

export const ADMIN_TITLE = 'Administration';

/** The sections of the root view, in order, with their titles (≤ 24 characters: they title modals). */
export const SECTIONS = {
  people: 'People',
  invitations: 'Invitations',
  teams: 'Teams and channels',
  notions: 'Notions',
  billing: 'Billing',
  links: 'Links and digests',
} as const;
export type SectionName = keyof typeof SECTIONS;

/** Lists page by this many items: two blocks each stays well within a modal's 100. */
export const PAGE_SIZE = 20;

/** What a section view lists: a section of the root view, a team's channels or a channel's members. */
export type PlaceKind = SectionName | 'team' | 'channel';

/** On the wire: `s` what it lists, `p` the page, `q` the search, `t`/`c` the team and channel. */
export const AdminPlaceWire = z.object({
  s: z.enum(['people', 'invitations', 'teams', 'notions', 'billing', 'links', 'team', 'channel']),
  p: z.number().int().min(1).default(1),
  q: z.string().max(256).optional(),
  t: z.string().min(1).optional(),
  c: z.string().min(1).optional(),
});

/** Where a section view is, as code reads it (see {@link AdminPlace}). */
export interface AdminPlace {
  section: PlaceKind;
  page: number;
  search?: string;
  teamId?: string;
  channelId?: string;
}

/**
 * Where a section view is: which list, which page, which search. Carried in the view's
 * private_metadata and in navigation buttons.
 */
export const AdminPlace = wireValue(AdminPlaceWire, placeFromWire, placeToWire);

export function placeFromWire(w: z.output<typeof AdminPlaceWire>): AdminPlace {
  return {
    section: w.s,
    page: w.p,
    ...(w.q !== undefined ? { search: w.q } : {}),
    ...(w.t !== undefined ? { teamId: w.t } : {}),
    ...(w.c !== undefined ? { channelId: w.c } : {}),
  };
}

export function placeToWire(place: AdminPlace): z.input<typeof AdminPlaceWire> {
  return {
    s: place.section,
    p: place.page,
    ...(place.search !== undefined ? { q: place.search } : {}),
    ...(place.teamId !== undefined ? { t: place.teamId } : {}),
    ...(place.channelId !== undefined ? { c: place.channelId } : {}),
  };
}

export const placeOf = (text: string | undefined): AdminPlace | undefined => parseCarried(AdminPlace, text);
/** The place as a button value or private_metadata. */
export const placeValue = (place: AdminPlace): string => toWire(AdminPlace, place);

/** The title of the view showing `place`. */
export function placeTitle(place: AdminPlace): string {
  if (place.section === 'team') return 'Team';
  if (place.section === 'channel') return 'Channel';
  return SECTIONS[place.section];
}

/** What a button acting on one thing carries, as code reads it (see {@link Target}). */
export interface Target {
  id: string;
  /** For channels and members: where they are. */
  teamId?: string;
  channelId?: string;
  /** A name to say in sentences (never read back as an id). */
  name?: string;
}

/** What a button acting on one thing carries: its id and, for channels and members, where it is. */
export const Target = wireValue(
  z.object({
    id: z.string().min(1),
    t: z.string().optional(),
    c: z.string().optional(),
    n: z.string().max(80).optional(),
  }),
  (w): Target => ({
    id: w.id,
    ...(w.t !== undefined ? { teamId: w.t } : {}),
    ...(w.c !== undefined ? { channelId: w.c } : {}),
    ...(w.n !== undefined ? { name: w.n } : {}),
  }),
  (target) => ({
    id: target.id,
    ...(target.teamId !== undefined ? { t: target.teamId } : {}),
    ...(target.channelId !== undefined ? { c: target.channelId } : {}),
    ...(target.name !== undefined ? { n: target.name } : {}),
  }),
);

export const targetValue = (target: Target) => toWire(Target, target);
export const targetOf = (value: string | undefined) => parseCarried(Target, value);

/** The line on top of a view after something was done (or refused) in it. */
export type Flash = { ok: Mrkdwn } | { problem: Mrkdwn };

export function flashBlocks(flash: Flash | undefined): KnownBlock[] {
  if (!flash) return [];
  return 'ok' in flash
    ? [context(md`:white_check_mark: ${flash.ok}`)]
    : [context(md`:warning: ${flash.problem}`)];
}

/** "Page 2 of 5 · 93 invitations" and Previous/Next buttons that carry the place to go to. */
export function pager(
  place: AdminPlace,
  shown: number,
  total: number | undefined,
  noun: string,
): KnownBlock[] {
  const pages = total === undefined ? undefined : Math.max(1, Math.ceil(total / PAGE_SIZE));
  const hasNext = pages === undefined ? shown >= PAGE_SIZE : place.page < pages;
  const buttons: Button[] = [];
  if (place.page > 1) {
    buttons.push(
      button('◀ Previous', ADMIN_ACTION.pagePrevious, {
        value: placeValue({ ...place, page: place.page - 1 }),
      }),
    );
  }
  if (hasNext) {
    buttons.push(
      button('Next ▶', ADMIN_ACTION.pageNext, { value: placeValue({ ...place, page: place.page + 1 }) }),
    );
  }
  const count = total === undefined ? '' : ` · ${plural(total, noun)}`;
  return [
    context(md`Page ${place.page}${pages ? ` of ${pages}` : ''}${count}`),
    ...(buttons.length > 0 ? [actions('pager', ...buttons)] : []),
  ];
}

/** A form's button value: which form, for what. */
export const FORM_KINDS = [
  'invite',
  'editInvite',
  'share',
  'renameAccount',
  'newTeam',
  'renameTeam',
  'newChannel',
  'renameChannel',
  'teamAdd',
  'teamRemove',
  'channelAdd',
  'personTeams',
  'newNotion',
  'renameNotion',
  'link',
  'digestTime',
] as const;
export type FormKind = (typeof FORM_KINDS)[number];

/** The action id of the button opening a form (unique per form, so one block may hold several). */
export const formActionId = (kind: FormKind) => `${ADMIN_ACTION.form}_${kind}`;

/** On the wire: `f` the form, `id` what it is about, `t`/`c` the team and channel, `n` a name. */
export const FormRequestWire = z.object({
  f: z.enum(FORM_KINDS),
  id: z.string().optional(),
  t: z.string().optional(),
  c: z.string().optional(),
  n: z.string().max(80).optional(),
});

/** A form button's value as code reads it (see {@link FormRequest}). */
export interface FormRequest {
  form: FormKind;
  /** The invitation, account or notion the form is about; for a digest, the linked Slack channel. */
  id?: string;
  teamId?: string;
  channelId?: string;
  /** A name to say in the form (never read back as an id). */
  name?: string;
}

export const formRequestFromWire = (w: z.output<typeof FormRequestWire>): FormRequest => ({
  form: w.f,
  ...(w.id !== undefined ? { id: w.id } : {}),
  ...(w.t !== undefined ? { teamId: w.t } : {}),
  ...(w.c !== undefined ? { channelId: w.c } : {}),
  ...(w.n !== undefined ? { name: w.n } : {}),
});

export const formRequestToWire = (request: FormRequest): z.input<typeof FormRequestWire> => ({
  f: request.form,
  ...(request.id !== undefined ? { id: request.id } : {}),
  ...(request.teamId !== undefined ? { t: request.teamId } : {}),
  ...(request.channelId !== undefined ? { c: request.channelId } : {}),
  ...(request.name !== undefined ? { n: request.name } : {}),
});

/** A form's button value: which form, for what. */
export const FormRequest = wireValue(FormRequestWire, formRequestFromWire, formRequestToWire);

export function formButton(text: string, request: FormRequest, style?: 'primary' | 'danger'): Button {
  return button(text, formActionId(request.form), {
    value: toWire(FormRequest, request),
    ...(style ? { style } : {}),
  });
}

/**
 * A name as buttons carry it: short, for sentences only. Cut to the length the carried values'
 * schemas allow (`n`: 80), never in the middle of a character.
 */
export const shortName = (name: string | undefined) => cutToLength(name ?? '', 80);
