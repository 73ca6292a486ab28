/**
 * The invitation form, new (the Invitations section's New invitation) or edited (an invitation's
 * Edit): its team, name, role, expiry and uses, and what saving it does.
 */
import type { ViewOutput } from '@slack/bolt';
import type { ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import { input, type Mrkdwn, md, modal, option, textInput } from '../../blockkit/index.js';
import { ASSIGNABLE_ROLES, type Invitation, LIMITS, type Team } from '../../planning/index.js';
import { planningOf } from '../kit/acting.js';
import { type FormOutput, form, read, requiredText } from '../kit/form.js';
import { teamChoices, teamOption } from '../kit/inputs.js';
import type { SubmissionSpec } from '../kit/submission.js';
import { done, type FormMeta, formMetaOf, meta, metaField, problemBlocks } from './form-common.js';
import { ADMIN_FIELD, ADMIN_VIEW } from './ids.js';

const roleOption = (role: string) => option(role === 'admin' ? 'Admin' : 'Member', role);

export interface InvitationFormData {
  meta: FormMeta;
  teams: Team[];
  /** The invitation being edited. */
  invitation?: Invitation;
  /** What was typed, when the form comes back after a failure. */
  typed?: { teamId?: string; name?: string; role?: string; days?: number; uses?: number };
  problem?: Mrkdwn;
}

export function invitationForm({
  meta: m,
  teams,
  invitation,
  typed,
  problem,
}: InvitationFormData): ModalView {
  const teamOptions: PlainTextOption[] = teams.slice(0, 100).map(teamOption);
  const teamId = typed?.teamId ?? invitation?.teamId;
  const team = teamOptions.find((o) => o.value === teamId);
  const name = typed?.name ?? invitation?.inviteName;
  const role = typed?.role ?? invitation?.inviteOrgRole ?? 'member';
  const uses = typed?.uses ?? invitation?.inviteUsesMax ?? 0;
  const days = typed?.days ?? (invitation ? undefined : 7);
  const editing = Boolean(invitation);
  return modal({
    callbackId: ADMIN_VIEW.invitation,
    title: editing ? 'Edit invitation' : 'New invitation',
    submit: editing ? 'Save' : 'Create',
    close: 'Back',
    privateMetadata: meta(m),
    blocks: [
      input('Team', ADMIN_FIELD.inviteTeam.block, {
        type: 'static_select',
        action_id: ADMIN_FIELD.inviteTeam.action,
        placeholder: { type: 'plain_text', text: 'The team people join' },
        options: teamOptions.length > 0 ? teamOptions : [option('(no team)', 'none')],
        ...(team ? { initial_option: team } : {}),
      }),
      input(
        'Name',
        ADMIN_FIELD.inviteName.block,
        textInput(ADMIN_FIELD.inviteName.action, {
          min: LIMITS.inviteName.min,
          max: LIMITS.inviteName.max,
          placeholder: 'e.g. Spring interns',
          value: name,
        }),
      ),
      input('Role', ADMIN_FIELD.inviteRole.block, {
        type: 'static_select',
        action_id: ADMIN_FIELD.inviteRole.action,
        options: ASSIGNABLE_ROLES.map(roleOption),
        initial_option: roleOption(role),
      }),
      input(
        editing ? 'Expires in (days from now)' : 'Expires in (days)',
        ADMIN_FIELD.inviteDays.block,
        {
          type: 'number_input',
          action_id: ADMIN_FIELD.inviteDays.action,
          is_decimal_allowed: false,
          min_value: String(LIMITS.inviteExpireDays.min),
          max_value: String(LIMITS.inviteExpireDays.max),
          ...(days !== undefined ? { initial_value: String(days) } : {}),
        },
        editing
          ? {
              optional: true,
              hint: `${LIMITS.inviteExpireDays.min}–${LIMITS.inviteExpireDays.max} days; leave empty to keep the current expiry.`,
            }
          : { hint: `${LIMITS.inviteExpireDays.min}–${LIMITS.inviteExpireDays.max} days.` },
      ),
      input(
        'Uses',
        ADMIN_FIELD.inviteUses.block,
        {
          type: 'number_input',
          action_id: ADMIN_FIELD.inviteUses.action,
          is_decimal_allowed: false,
          min_value: String(LIMITS.inviteUsesMax.min),
          max_value: String(LIMITS.inviteUsesMax.max),
          initial_value: String(uses),
        },
        { hint: `How many people may join with it, up to ${LIMITS.inviteUsesMax.max}; 0 = unlimited.` },
      ),
      ...problemBlocks(problem),
    ],
  });
}

const InvitationInput = form(
  {
    meta: read.metadata(ADMIN_FIELD.inviteTeam, metaField, formMetaOf),
    teamId: read.value(
      ADMIN_FIELD.inviteTeam,
      z.string({ error: 'Choose a team.' }).refine((v) => v !== 'none', 'Choose a team.'),
    ),
    name: read.value(
      ADMIN_FIELD.inviteName,
      requiredText('Name the invitation.')
        .min(LIMITS.inviteName.min, `At least ${LIMITS.inviteName.min} characters.`)
        .max(LIMITS.inviteName.max, `At most ${LIMITS.inviteName.max} characters.`),
    ),
    role: read.value(ADMIN_FIELD.inviteRole, z.enum(ASSIGNABLE_ROLES, { error: 'Choose a role.' })),
    days: read.number(
      ADMIN_FIELD.inviteDays,
      z
        .number({ error: `Between ${LIMITS.inviteExpireDays.min} and ${LIMITS.inviteExpireDays.max} days.` })
        .int(`A whole number of days.`)
        .min(LIMITS.inviteExpireDays.min, `At least ${LIMITS.inviteExpireDays.min} day.`)
        .max(LIMITS.inviteExpireDays.max, `At most ${LIMITS.inviteExpireDays.max} days.`)
        .optional(),
    ),
    uses: read.number(
      ADMIN_FIELD.inviteUses,
      z
        .number({ error: `Between 0 and ${LIMITS.inviteUsesMax.max}; 0 = unlimited.` })
        .int('A whole number.')
        .min(LIMITS.inviteUsesMax.min, '0 (unlimited) or more.')
        .max(LIMITS.inviteUsesMax.max, `At most ${LIMITS.inviteUsesMax.max}.`),
    ),
  },
  {
    // A new invitation expires; an edited one may keep no expiry.
    refine: (f) =>
      f.refine((v) => v.meta.form === 'editInvite' || v.days !== undefined, {
        path: ['days'],
        message: `Between ${LIMITS.inviteExpireDays.min} and ${LIMITS.inviteExpireDays.max} days.`,
      }),
  },
);
type InvitationInput = FormOutput<typeof InvitationInput>;

const teamsOf = (view: ViewOutput) => teamChoices(view.blocks, ADMIN_FIELD.inviteTeam);

export const invitationSubmission: SubmissionSpec<InvitationInput> = {
  action: 'admin invitation',
  title: 'Invitation',
  working: 'Saving the invitation…',
  parse: InvitationInput.parse,
  retry: (data, problem, view) =>
    invitationForm({
      meta: data.meta,
      teams: teamsOf(view),
      typed: {
        teamId: data.teamId,
        name: data.name,
        role: data.role,
        ...(data.days !== undefined ? { days: data.days } : {}),
        uses: data.uses,
      },
      problem,
    }),
  run: async (svc, data, args) => {
    const acting = await planningOf(args.context).acting();
    const payload = {
      teamId: data.teamId,
      inviteName: data.name,
      inviteOrgRole: data.role,
      inviteUsesMax: data.uses,
      ...(data.days !== undefined ? { inviteExpireDays: data.days } : {}),
    };
    if (data.meta.form === 'editInvite' && data.meta.id) {
      await acting.planning.invitations.update(data.meta.id, payload);
      return done(svc, args, data.meta, acting, md`The invitation *${data.name}* is saved.`);
    }
    await acting.planning.invitations.create(payload);
    return done(
      svc,
      args,
      data.meta,
      acting,
      md`The invitation *${data.name}* is created: share it from the list.`,
    );
  },
};
