/**
 * `user_change`: a person deactivated in the workspace loses what the app kept for them — their
 * provisioned service account is closed and their identity removed (a pasted token is forgotten).
 * Someone who is no longer a full member (now a guest, a bot, of another organization) loses
 * Slack's recorded confirmation at once, so that their next request on any replica asks Slack and
 * is refused (kit/acting.ts). For anyone else, a changed display name or photo is carried to their
 * service account, and a changed time zone to their quiet hours.
 * Once: the identity is forgotten and its closure recorded in one transaction, so of two deliveries
 * at once (or a retry) only one finds it; the closure itself is taken under a once key (closures.ts),
 * so neither it nor the minute tick on another replica closes the account twice.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { workspaceIdFor } from '../../store/index.js';
import { environmentAdminToken } from '../kit/deps.js';
import { notAMember } from '../kit/membership.js';
import { followSlackProfile } from '../kit/profile.js';
import type { Services } from '../kit/services.js';
import { closeForgottenAccounts } from './closures.js';

export async function userChangeEvent(
  svc: Services,
  { event, context }: SlackEventMiddlewareArgs<'user_change'> & AllMiddlewareArgs,
) {
  const workspaceId = workspaceIdFor(context);
  if (!event.user.deleted) {
    const home = { teamId: context.teamId, enterpriseId: context.enterpriseId };
    if (notAMember(event.user, home)) {
      await svc.deps.store.identities.confirmMember(workspaceId, event.user.id, undefined);
    }
    // Quiet hours are read in the person's Slack time zone: a move follows it.
    const prefs = await svc.deps.store.notifications.prefs(workspaceId, event.user.id);
    if (prefs && event.user.tz && prefs.timeZone !== event.user.tz) {
      await svc.deps.store.notifications.savePrefs(workspaceId, event.user.id, {
        ...prefs,
        timeZone: event.user.tz,
      });
    }
    await followSlackProfile(svc.deps, workspaceId, event.user.id, {
      ...event.user.profile,
      name: event.user.name,
    });
    return;
  }
  const { store, logger } = svc.deps;
  const forgotten = await store.identities.forget(workspaceId, event.user.id, {
    reason: 'deactivated',
    adminToken: environmentAdminToken(svc.deps),
  });
  const [identity] = forgotten.identities;
  if (identity) {
    logger.info(
      { workspaceId, serviceAccountId: identity.serviceAccountId, origin: identity.origin },
      'deactivated Slack user: identity removed',
    );
  }
  // Someone who had disconnected has no identity, but the account they left open is closed too.
  if (forgotten.unclosable > 0) {
    logger.warn(
      { workspaceId, serviceAccountId: identity?.serviceAccountId },
      'provisioned service account left open: the workspace has no organization admin token',
    );
  }
  if (forgotten.toClose > 0) await closeForgottenAccounts(svc.deps, { workspaceId });
}
