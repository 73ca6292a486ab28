/**
 * The choice whether a pasted account's name and photo follow the person's Slack profile: made on
 * connect (a checkbox, off unless ticked), shown on Home and changed there. A provisioned account
 * always follows (src/slack/kit/profile.ts applies it). Turning it on applies the profile at once.
 */
import type { WebClient } from '@slack/web-api';
import { md } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { followSlackProfile } from '../kit/profile.js';
import type { Services } from '../kit/services.js';
import { privateSurface, showFailure } from '../kit/surfaces.js';

/**
 * Reads the person's Slack profile and carries it to their account (when they follow it). Best
 * effort, after the answer: never rejects, a failure is logged.
 */
export function applySlackProfile(
  svc: Services,
  client: WebClient,
  workspaceId: string,
  slackUserId: string,
): Promise<unknown> {
  return client.users
    .info({ user: slackUserId })
    .then((info) =>
      followSlackProfile(svc.deps, workspaceId, slackUserId, {
        ...info.user?.profile,
        name: info.user?.name,
      }),
    )
    .catch((error: unknown) =>
      svc.deps.logger.warn({ err: error }, 'profile: could not read the Slack profile'),
    );
}

/** Home's button: follow the Slack profile (`on`) or stop (`off`), then the tab again. */
export async function followProfileAction(svc: Services, args: ActionArgs): Promise<void> {
  const planning = planningOf(args.context);
  const value = actionValue(args.action);
  if (value !== 'on' && value !== 'off') return;
  const follows = value === 'on';
  const { workspaceId, slackUserId } = planning;
  try {
    const identity = await svc.deps.store.identities.get(workspaceId, slackUserId);
    if (identity?.origin !== 'brought') {
      // Provisioned accounts always follow; no identity: the tab is stale.
      await svc.home.refresh(args.client, planning);
      return;
    }
    await svc.deps.store.identities.setFollowsProfile(workspaceId, slackUserId, follows);
    svc.home.forget(workspaceId, slackUserId);
    if (follows) await applySlackProfile(svc, args.client, workspaceId, slackUserId);
    await svc.home.refresh(
      args.client,
      planning,
      follows
        ? md`:white_check_mark: Your account now takes your Slack name and photo.`
        : md`:white_check_mark: Your account keeps its own name and photo: your Slack profile is no longer copied.`,
    );
  } catch (error) {
    await showFailure(svc.deps, privateSurface({ client: args.client }, slackUserId), error, {
      action: 'follow profile',
      workspaceId,
      slackUserId,
    });
  }
}
