/**
 * The name forms — one name: a team, channel or notion created or renamed (a channel with its
 * description), an account renamed — and what saving each does.
 */
import type { ModalView } from '@slack/types';
import { input, type Mrkdwn, md, modal, section, textInput } from '../../blockkit/index.js';
import { LIMITS } from '../../planning/index.js';
import { planningOf } from '../kit/acting.js';
import { type FormOutput, form, optionalText, read, requiredText } from '../kit/form.js';
import type { Acting } from '../kit/identity.js';
import { FormProblem, type SubmissionSpec } from '../kit/submission.js';
import { done, type FormMeta, formMetaOf, meta, metaField, problemBlocks } from './form-common.js';
import { ADMIN_FIELD, ADMIN_VIEW } from './ids.js';

/** What a name form asks for, by form. */
export const NAME_FORMS = {
  renameAccount: {
    title: 'Rename account',
    label: 'Name',
    min: LIMITS.userName.min,
    max: LIMITS.userName.max,
  },
  newTeam: { title: 'New team', label: 'Team name', min: LIMITS.teamName.min, max: LIMITS.teamName.max },
  renameTeam: {
    title: 'Rename team',
    label: 'Team name',
    min: LIMITS.teamName.min,
    max: LIMITS.teamName.max,
  },
  newChannel: {
    title: 'New channel',
    label: 'Channel name',
    min: LIMITS.channelName.min,
    max: LIMITS.channelName.max,
  },
  renameChannel: {
    title: 'Rename channel',
    label: 'Channel name',
    min: LIMITS.channelName.min,
    max: LIMITS.channelName.max,
  },
  newNotion: { title: 'New notion', label: 'Notion', min: 1, max: LIMITS.notion },
  renameNotion: { title: 'Rename notion', label: 'Notion', min: 1, max: LIMITS.notion },
} as const;
export type NameFormKind = keyof typeof NAME_FORMS;
export const isNameForm = (kind: string): kind is NameFormKind => kind in NAME_FORMS;

export function nameForm(
  m: FormMeta & { form: NameFormKind },
  typed?: { name?: string; description?: string },
  problem?: Mrkdwn,
): ModalView {
  const spec = NAME_FORMS[m.form];
  const initial = typed?.name ?? (m.form.startsWith('rename') ? m.name : undefined);
  const channel = m.form === 'newChannel' || m.form === 'renameChannel';
  return modal({
    callbackId: ADMIN_VIEW.name,
    title: spec.title,
    submit: m.form.startsWith('new') ? 'Create' : 'Save',
    close: 'Back',
    privateMetadata: meta(m),
    blocks: [
      ...(m.form === 'newChannel' && m.name ? [section(md`A new channel in *${m.name}*.`)] : []),
      input(
        spec.label,
        ADMIN_FIELD.name.block,
        textInput(ADMIN_FIELD.name.action, { min: spec.min, max: spec.max, value: initial }),
      ),
      ...(channel
        ? [
            input(
              'Description',
              ADMIN_FIELD.description.block,
              textInput(ADMIN_FIELD.description.action, {
                max: LIMITS.channelDesc,
                value: typed?.description,
              }),
              { optional: true },
            ),
          ]
        : []),
      ...problemBlocks(problem),
    ],
  });
}

const NameInput = form(
  {
    meta: read.metadata(
      ADMIN_FIELD.name,
      metaField.refine((m) => isNameForm(m.form), 'This form is from an older version.'),
      formMetaOf,
    ),
    name: read.value(ADMIN_FIELD.name, requiredText('Write a name.')),
    description: read.value(ADMIN_FIELD.description, optionalText(LIMITS.channelDesc)),
  },
  {
    // Each kind of name has its own length (a team's, a channel's, a notion's…).
    refine: (f) =>
      f.superRefine((v, ctx) => {
        if (!isNameForm(v.meta.form)) return;
        const spec = NAME_FORMS[v.meta.form];
        if (v.name.length < spec.min)
          ctx.addIssue({ code: 'custom', path: ['name'], message: `At least ${spec.min} characters.` });
        if (v.name.length > spec.max)
          ctx.addIssue({ code: 'custom', path: ['name'], message: `At most ${spec.max} characters.` });
      }),
  },
);
type NameInput = FormOutput<typeof NameInput>;

async function applyName(
  acting: Acting,
  meta: FormMeta & { form: NameFormKind },
  name: string,
  description?: string,
) {
  const p = acting.planning;
  const need = (value: string | undefined) => {
    if (!value)
      throw new FormProblem(md`This form no longer says what it is about: close it and start again.`);
    return value;
  };
  const desc = description ? { channelDesc: description } : {};
  switch (meta.form) {
    case 'renameAccount':
      await p.serviceAccounts.update(need(meta.id), { userName: name });
      return md`The account is now called *${name}*.`;
    case 'newTeam':
      await p.teams.create({ teamName: name });
      return md`The team *${name}* is created, with its default channel.`;
    case 'renameTeam':
      await p.teams.update(need(meta.teamId), { teamName: name });
      return md`The team is now called *${name}*.`;
    case 'newChannel':
      await p.channels.create(need(meta.teamId), { channelName: name, ...desc });
      return md`The channel *${name}* is created.`;
    case 'renameChannel':
      await p.channels.update(need(meta.teamId), need(meta.channelId), { channelName: name, ...desc });
      return md`The channel is now called *${name}*.`;
    case 'newNotion':
      await p.notions.create({ value: name });
      return md`The notion *${name}* is created.`;
    case 'renameNotion':
      await p.notions.update(need(meta.id), { value: name });
      return md`The notion is now called *${name}*.`;
  }
}

export const nameSubmission: SubmissionSpec<NameInput> = {
  action: 'admin name',
  title: 'Saving',
  working: 'Saving…',
  parse: NameInput.parse,
  retry: (data, problem) =>
    nameForm(
      { ...data.meta, form: data.meta.form as NameFormKind },
      { name: data.name, ...(data.description ? { description: data.description } : {}) },
      problem,
    ),
  run: async (svc, data, args) => {
    const acting = await planningOf(args.context).acting();
    const said = await applyName(
      acting,
      { ...data.meta, form: data.meta.form as NameFormKind },
      data.name,
      data.description,
    );
    return done(svc, args, data.meta, acting, said);
  },
};
