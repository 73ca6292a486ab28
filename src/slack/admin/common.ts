/**
 * What every admin view shares: where it is (its state, carried in private_metadata), the pager,
 * the one-line result or refusal shown on top, and the values buttons carry.
 */
import type { Button, KnownBlock } from '@slack/types';
import { z } from 'zod';
import { actions, button, context, cutToLength, type Mrkdwn, md, plural } from '../../blockkit/index.js';
import { parseCarried } from '../kit/round-trip.js';
import { ADMIN_ACTION } from './ids.js';

export const ADMIN_TITLE = 'Administration';

/** The sections of the root view, in order, with their titles (≤ 24 characters: they title modals). */
export const SECTIONS = {
  people: 'People',
  invitations: 'Invitations',
  teams: 'Teams and channels',
  notions: 'Notions',
  billing: 'Billing',
} as const;
export type SectionName = keyof typeof SECTIONS;

/** Lists page by this many items: two blocks each stays well within a modal's 100. */
export const PAGE_SIZE = 20;

/**
 * Where a section view is: which list (a section, or a team's channels, or a channel's members),
 * which page, which search. Carried in the view's private_metadata and in navigation buttons.
 */
export const AdminPlace = z.object({
  s: z.enum(['people', 'invitations', 'teams', 'notions', 'billing', 'team', 'channel']),
  p: z.number().int().min(1).default(1),
  q: z.string().max(256).optional(),
  t: z.string().min(1).optional(),
  c: z.string().min(1).optional(),
});
export type AdminPlace = z.infer<typeof AdminPlace>;

export const placeOf = (text: string | undefined): AdminPlace | undefined => parseCarried(AdminPlace, text);

/** The title of the view showing `place`. */
export function placeTitle(place: AdminPlace): string {
  if (place.s === 'team') return 'Team';
  if (place.s === 'channel') return 'Channel';
  return SECTIONS[place.s];
}

/** What a button acting on one thing carries: its id and, for channels and members, where it is. */
export const Target = z.object({
  id: z.string().min(1),
  t: z.string().optional(),
  c: z.string().optional(),
  /** A name to say in sentences (never read back as an id). */
  n: z.string().max(80).optional(),
});
export type Target = z.infer<typeof Target>;

export const targetValue = (target: Target) => JSON.stringify(target);
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
  const hasNext = pages === undefined ? shown >= PAGE_SIZE : place.p < pages;
  const buttons: Button[] = [];
  if (place.p > 1) {
    buttons.push(
      button('◀ Previous', ADMIN_ACTION.pagePrevious, {
        value: JSON.stringify({ ...place, p: place.p - 1 }),
      }),
    );
  }
  if (hasNext) {
    buttons.push(
      button('Next ▶', ADMIN_ACTION.pageNext, { value: JSON.stringify({ ...place, p: place.p + 1 }) }),
    );
  }
  const count = total === undefined ? '' : ` · ${plural(total, noun)}`;
  return [
    context(md`Page ${place.p}${pages ? ` of ${pages}` : ''}${count}`),
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
] as const;
export type FormKind = (typeof FORM_KINDS)[number];

/** The action id of the button opening a form (unique per form, so one block may hold several). */
export const formActionId = (kind: FormKind) => `${ADMIN_ACTION.form}_${kind}`;

export const FormRequest = z.object({
  f: z.enum(FORM_KINDS),
  id: z.string().optional(),
  t: z.string().optional(),
  c: z.string().optional(),
  n: z.string().max(80).optional(),
});
export type FormRequest = z.infer<typeof FormRequest>;

export function formButton(text: string, request: FormRequest, style?: 'primary' | 'danger'): Button {
  return button(text, formActionId(request.f), {
    value: JSON.stringify(request),
    ...(style ? { style } : {}),
  });
}

/**
 * A name as buttons carry it: short, for sentences only. Cut to the length the carried values'
 * schemas allow (`n`: 80), never in the middle of a character.
 */
export const shortName = (name: string | undefined) => cutToLength(name ?? '', 80);
