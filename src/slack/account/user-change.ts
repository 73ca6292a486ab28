/**
 * `user_change`: a person deactivated in the workspace loses what the app kept for them — their
 * provisioned service account is closed and their identity removed (a pasted token is forgotten).
 * For anyone else, a changed display name or photo is carried to their service account, and a
 * changed time zone to their quiet hours.
 * Slack retries events: a second delivery finds nothing left to do.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { workspaceIdFor } from '../../store/index.js';
import { followSlackProfile } from '../kit/profile.js';
import type { Services } from '../kit/services.js';
import { closeProvisioned } from './disconnect.js';

export async function userChangeEvent(
  svc: Services,
  { event, context }: SlackEventMiddlewareArgs<'user_change'> & AllMiddlewareArgs,
) {
  const workspaceId = workspaceIdFor(context);
  if (!event.user.deleted) {
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
  const identity = await svc.deps.store.identities.get(workspaceId, event.user.id);
  if (!identity) return;
  const { closed } = await closeProvisioned(svc, workspaceId, [identity]);
  await svc.deps.store.identities.delete(workspaceId, event.user.id);
  svc.deps.logger.info(
    { workspaceId, serviceAccountId: identity.serviceAccountId, closed: closed > 0 },
    'deactivated Slack user: identity removed',
  );
}
