/**
 * Connecting with a pasted service-account token (a member's own, or the organization admin's):
 * the token's shape is checked without I/O, then the account behind it is read. A token is never
 * echoed, not even back into the form after a refusal.
 */
import { md } from '../../blockkit/index.js';
import { type Account, orgIdFromToken, UnauthorizedError } from '../../planning/index.js';
import type { ActionArgs, Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { type FormOutput, form, read, requiredText } from '../kit/form.js';
import { notice } from '../kit/messages.js';
import { modalRequest, openModal } from '../kit/modal.js';
import { orgName, roleIn } from '../kit/planning-account.js';
import type { Services } from '../kit/services.js';
import { FormProblem, submission } from '../kit/submission.js';
import { connectModal } from './blocks.js';
import { applySlackProfile } from './follow-profile.js';
import { ACCOUNT_FIELD, FOLLOW_PROFILE_OPTION } from './ids.js';

const TokenForm = form({
  token: read.value(
    ACCOUNT_FIELD.token,
    requiredText('Paste a token.')
      .regex(
        /^[\w-]+\.[\w-]+\.[\w-]*$/,
        'That is not a service-account token (three parts separated by dots).',
      )
      .refine((t) => orgIdFromToken(t) !== undefined, 'This token names no organization.'),
  ),
  followProfile: read.checked(ACCOUNT_FIELD.followProfile, FOLLOW_PROFILE_OPTION),
});
export type TokenForm = FormOutput<typeof TokenForm>;

/** The account behind a token; a refused token is a problem of the form, not of the user's identity. */
export async function readAccount(svc: Services, token: string): Promise<Account> {
  try {
    return await svc.deps.clients.planning(token).account.read();
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      throw new FormProblem(
        md`The planning service refused this token (revoked, expired or mistyped). Paste it again.`,
      );
    }
    throw error;
  }
}

export const connectSubmission = submission<TokenForm>({
  action: 'connect',
  title: 'Connect your account',
  working: 'Checking the token…',
  idempotent: false,
  parse: TokenForm.parse,
  retry: (_data, problem) => connectModal({ problem }),
  run: async (svc, { token, followProfile }, args) => {
    const planning = planningOf(args.context);
    const account = await readAccount(svc, token);
    const orgId = orgIdFromToken(token) as string;
    await svc.deps.store.identities.save({
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
      serviceAccountId: account.id,
      planningUserId: account.id,
      orgId,
      token,
      origin: 'brought',
      // A pasted account may be shared or named on purpose: it follows Slack only when chosen.
      followsProfile: followProfile,
    });
    svc.deps.logger.info(
      { workspaceId: planning.workspaceId, serviceAccountId: account.id, followProfile },
      'user connected',
    );
    // Best effort, after the answer: the account takes the Slack name and photo.
    if (followProfile) void applySlackProfile(svc, args.client, planning.workspaceId, planning.slackUserId);
    const names = followProfile
      ? md`Its name and photo will follow your Slack profile.`
      : md`Its name and photo stay as they are; you can have them follow your Slack profile from the app's Home.`;
    return {
      title: 'Connected',
      text: md`:white_check_mark: You now act as *${account.userName ?? account.id}* in *${orgName(account, orgId)}*. ${names}`,
    };
  },
});

export const connectAdminSubmission = submission<TokenForm>({
  action: 'connect-admin',
  title: 'Connect organization',
  working: 'Checking the token…',
  idempotent: false,
  parse: TokenForm.parse,
  retry: (_data, problem) => connectModal({ admin: true, problem }),
  run: async (svc, { token }, args) => {
    const planning = planningOf(args.context);
    const account = await readAccount(svc, token);
    const orgId = orgIdFromToken(token) as string;
    const role = roleIn(account, orgId);
    if (role !== 'owner' && role !== 'admin') {
      throw new FormProblem(
        md`This account is not an owner or admin of its organization, so it cannot create accounts.`,
      );
    }
    await svc.deps.store.workspaces.setAdminToken(planning.workspaceId, token, orgId);
    svc.deps.logger.info(
      { workspaceId: planning.workspaceId, orgId },
      'organization connected for provisioning',
    );
    return {
      title: 'Connected',
      text: md`:white_check_mark: Organization *${orgName(account, orgId)}* connected. Members get a service account on first use.`,
    };
  },
});

/**
 * `/plan connect` opens the token form; `/plan connect admin` (workspace admins) the organization
 * token form used for provisioning. The modal opens straight away: the trigger id lives 3 s.
 */
const isAdminConnect = (text: string) => text.toLowerCase() === 'admin';

export const connectSubcommand: Subcommand<Services> = {
  name: 'connect',
  usage: 'connect [admin]',
  summary: 'connect your planning account (admins: `connect admin` sets up accounts for everyone)',
  // Anyone may connect their own account; the organization's token is the workspace admins'.
  access: (text) => (isAdminConnect(text) ? 'admin' : 'anyone'),
  doing: 'connect the organization',
  async run(svc, args) {
    const { text, command, reply } = args;
    const admin = isAdminConnect(text);
    if (text !== '' && !admin) {
      await reply(
        notice(
          md`Say \`/plan connect\` for your own account, or \`/plan connect admin\` for the organization.`,
        ),
      );
      return;
    }
    await openModal(modalRequest(svc, args, command.trigger_id, '/plan connect'), connectModal({ admin }));
  },
};

export async function connectOpenAction(svc: Services, args: ActionArgs) {
  const { body, client } = args;
  if (body.view) await client.views.update({ view_id: body.view.id, view: connectModal() });
  else await openModal(modalRequest(svc, args, body.trigger_id, 'connect open'), connectModal());
}
