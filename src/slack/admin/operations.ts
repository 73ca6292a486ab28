/**
 * The admin modal's buttons that change something at once: close or regenerate an account, revoke
 * an invitation, delete a team, channel or notion, remove or add a channel member, change or cancel
 * the subscription, change a linked channel's digest or its own settings, or unlink it. The destructive ones come behind Slack's confirmation dialog (see the blocks).
 *
 * Each is applied once however often it arrives: Slack's retries and a double click carry the same
 * view and hash, so a key of the view's hash and the target lets the first do the work and the
 * others show its outcome. The view is then shown again, fresh, with one line on top saying what
 * was done — or, when the service refused, why in one sentence.
 */
import type { WebClient } from '@slack/web-api';
import { channelMention, joinMd, Mrkdwn, md, mention, modal } from '../../blockkit/index.js';
import { ForbiddenError } from '../../planning/index.js';
import { ONCE_TTL, OnceKeyUnavailableError } from '../../store/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { changeDigest, type DigestChange } from '../digest/index.js';
import { planningOf } from '../kit/acting.js';
import { explainFailure } from '../kit/failures.js';
import { type Acting, CLOSED_BY_ADMIN } from '../kit/identity.js';
import { VIEW } from '../kit/ids.js';
import { connectBlocks } from '../kit/messages.js';
import { peopleOf } from '../kit/people.js';
import type { Services } from '../kit/services.js';
import { changeLinkSetting, type LinkSettingChange, unlinkChannel } from '../link/index.js';
import { type Flash, placeOf, type Target, targetOf } from './common.js';
import { ADMIN_ACTION } from './ids.js';
import { showPlace } from './navigate.js';
import { DEFAULT_CHANNEL_RULE } from './teams.js';

/** A refusal the operation explains better than the generic sentence (the default-channel rule). */
export class AdminRefusal extends Error {
  override name = 'AdminRefusal';
  constructor(readonly problem: Mrkdwn) {
    super(problem.text);
  }
}

interface Applied {
  said: Mrkdwn;
  /** The admin's own token was replaced: later calls in this request use the new one. */
  acting?: Acting;
}

type Operation = (svc: Services, acting: Acting, target: Target, slack: WebClient) => Promise<Applied>;

const named = (target: Target) => target.name || target.id;

/** The Slack users of this workspace whose stored identity is the account (usually one, or none). */
async function holdersOf(svc: Services, acting: Acting, accountId: string) {
  return (await peopleOf(svc.deps, acting.workspaceId, [accountId])).everyoneActingAs(accountId);
}

const mentions = (holders: readonly string[]) =>
  joinMd(
    holders.map((slackUserId) => mention(slackUserId)),
    ', ',
  );

export const OPERATIONS: Readonly<Record<string, Operation>> = {
  [ADMIN_ACTION.closeAccount]: async (svc, acting, target) => {
    await acting.planning.serviceAccounts.close(target.id);
    const holders = await holdersOf(svc, acting, target.id);
    // Their stored identity stops at once and is not renewed behind the admin's back (identity.ts).
    for (const holder of holders) {
      await svc.deps.store.identities.markInvalid(acting.workspaceId, holder, CLOSED_BY_ADMIN);
    }
    return {
      said:
        holders.length > 0
          ? md`*${named(target)}* is closed: ${mentions(holders)} can no longer act until it is re-opened.`
          : md`*${named(target)}* is closed.`,
    };
  },

  [ADMIN_ACTION.regenerate]: async (svc, acting, target) => {
    const account = await acting.planning.serviceAccounts.regenerate(target.id);
    const holders = await holdersOf(svc, acting, target.id);
    if (holders.length === 0) {
      return { said: md`*${named(target)}* has a new token; nobody in this workspace uses this account.` };
    }
    const token = account.serviceToken;
    if (!token) {
      return {
        said: md`*${named(target)}* has a new token, but the service did not hand it to the app: ${mentions(holders)} must connect again.`,
      };
    }
    // Stored at once (valid again if it was closed), so the next command works; it is never shown.
    for (const holder of holders) {
      await svc.deps.store.identities.rotateToken(acting.workspaceId, holder, token);
    }
    const self = holders.includes(acting.slackUserId);
    return {
      said: md`*${named(target)}* has a new token, stored for ${mentions(holders)}, who keep working as before.`,
      ...(self ? { acting: { ...acting, planning: svc.deps.clients.planning(token) } } : {}),
    };
  },

  [ADMIN_ACTION.revokeInvitation]: async (svc, acting, target, slack) => {
    await acting.planning.invitations.delete(target.id);
    // The messages that shared it follow: its link no longer works.
    await svc.changes.invitationRevoked(acting.workspaceId, target.id, slack);
    return { said: md`The invitation *${named(target)}* is revoked: its link no longer works.` };
  },

  [ADMIN_ACTION.deleteTeam]: async (_svc, acting, target) => {
    await acting.planning.teams.delete(target.id);
    return { said: md`The team *${named(target)}* is deleted.` };
  },

  [ADMIN_ACTION.deleteChannel]: async (_svc, acting, target) => {
    if (!target.teamId) throw new AdminRefusal(md`This button no longer says which team the channel is in.`);
    try {
      await acting.planning.channels.delete(target.teamId, target.id);
    } catch (error) {
      if (error instanceof ForbiddenError) {
        const team = await acting.planning.teams.read(target.teamId).catch(() => undefined);
        if (team?.channels.find((c) => c.id === target.id)?.isDefault)
          throw new AdminRefusal(DEFAULT_CHANNEL_RULE);
      }
      throw error;
    }
    return { said: md`The channel *${named(target)}* is deleted.` };
  },

  [ADMIN_ACTION.deleteNotion]: async (_svc, acting, target) => {
    await acting.planning.notions.delete(target.id);
    return { said: md`The notion *${named(target)}* and its experiences are deleted.` };
  },

  [ADMIN_ACTION.removeChannelMember]: async (_svc, acting, target) => {
    if (!target.teamId || !target.channelId)
      throw new AdminRefusal(md`This button no longer says which channel it is about.`);
    await acting.planning.channels.unassign(target.teamId, target.channelId, target.id);
    return { said: md`*${named(target)}* left the channel.` };
  },

  [ADMIN_ACTION.addProspect]: async (_svc, acting, target) => {
    if (!target.teamId || !target.channelId)
      throw new AdminRefusal(md`This button no longer says which channel it is about.`);
    await acting.planning.channels.assign(target.teamId, target.channelId, target.id);
    return { said: md`*${named(target)}* joined the channel.` };
  },

  [ADMIN_ACTION.changePlan]: async (_svc, acting, target) => {
    await acting.planning.billing.subscriptionUpdate(target.id);
    return { said: md`The subscription is now on *${named(target)}*.` };
  },

  [ADMIN_ACTION.cancelSubscription]: async (_svc, acting) => {
    await acting.planning.billing.subscriptionCancel();
    return { said: md`The subscription is cancelled: it stops renewing.` };
  },

  [ADMIN_ACTION.digestOn]: digestOperation({ kind: 'enable', enabled: true }),
  [ADMIN_ACTION.digestOff]: digestOperation({ kind: 'enable', enabled: false }),
  [ADMIN_ACTION.weekendsOn]: digestOperation({ kind: 'weekends', include: true }),
  [ADMIN_ACTION.weekendsOff]: digestOperation({ kind: 'weekends', include: false }),

  [ADMIN_ACTION.watchOn]: linkSettingOperation({ setting: 'watchEnabled', on: true }),
  [ADMIN_ACTION.watchOff]: linkSettingOperation({ setting: 'watchEnabled', on: false }),
  [ADMIN_ACTION.threadDiscoveriesOn]: linkSettingOperation({ setting: 'threadDiscoveries', on: true }),
  [ADMIN_ACTION.threadDiscoveriesOff]: linkSettingOperation({ setting: 'threadDiscoveries', on: false }),

  [ADMIN_ACTION.canvasOn]: async (svc, acting, target) => {
    if (!svc.canvas || !(await svc.deps.store.links.get(acting.workspaceId, target.id)))
      throw new AdminRefusal(md`${channelMention(target.id)} is not linked any more.`);
    const said = await svc.canvas.turnOn(acting.workspaceId, target.id, acting.slackUserId);
    return { said: md`${channelMention(target.id)}: ${said}` };
  },
  [ADMIN_ACTION.canvasOff]: canvasOffOperation('leave'),
  [ADMIN_ACTION.canvasDelete]: canvasOffOperation('delete'),

  [ADMIN_ACTION.unlink]: async (svc, acting, target) => {
    const removed = await unlinkChannel(svc, acting.workspaceId, target.id);
    if (!removed) throw new AdminRefusal(md`${channelMention(target.id)} is not linked any more.`);
    return { said: md`${channelMention(target.id)} is no longer linked: no digest is posted there.` };
  },
};

/** A change of a linked channel's digest (the target is the Slack channel), as `/plan digest` makes it. */
function digestOperation(change: DigestChange): Operation {
  return async (svc, acting, target) => {
    const done = await changeDigest(svc, acting.workspaceId, target.id, change);
    if (!done) throw new AdminRefusal(md`${channelMention(target.id)} is not linked any more.`);
    return { said: md`${channelMention(target.id)}: ${done.changed}` };
  };
}

/** A linked channel's own setting turned on or off (the target is the Slack channel), as the link form sets it. */
function linkSettingOperation(change: LinkSettingChange): Operation {
  return async (svc, acting, target) => {
    const done = await changeLinkSetting(svc, acting.workspaceId, target.id, change);
    if (!done) throw new AdminRefusal(md`${channelMention(target.id)} is not linked any more.`);
    return { said: md`${channelMention(target.id)}: ${done.changed}` };
  };
}

/** The canvas of the plan turned off: left with its last line, or deleted (the admin's choice). */
function canvasOffOperation(how: 'leave' | 'delete'): Operation {
  return async (svc, acting, target) => {
    const said = await svc.canvas?.turnOff(acting.workspaceId, target.id, undefined, how);
    return { said: md`${channelMention(target.id)}: ${said ?? 'no canvas of the plan was kept.'}` };
  };
}

/** Applies the pressed operation once and shows the section again with what happened. */
export async function applyOperation(svc: Services, args: ActionArgs): Promise<void> {
  const { body, action } = args;
  const view = body.view;
  const operation = OPERATIONS[action.action_id];
  const place = placeOf(view?.private_metadata);
  const target = targetOf(actionValue(action));
  if (!view || !operation || !place || !target) return;

  const planning = planningOf(args.context);
  const log = { action: action.action_id, workspaceId: planning.workspaceId };
  const key = `admin:${action.action_id}:${planning.workspaceId}:${view.id}:${view.hash}:${target.id}`;
  let flash: Flash;
  let acting: Acting | undefined;
  try {
    const done = await svc.deps.store.once.run(
      key,
      ONCE_TTL.adminOperation,
      async () => {
        acting = await planning.acting();
        const applied = await operation(svc, acting, target, args.client as WebClient);
        acting = applied.acting ?? acting;
        return applied.said;
      },
      // The stored outcome is the sentence this code made with `md` for the first press: safe mrkdwn.
      { codec: { encode: (said) => said.text, decode: (text) => new Mrkdwn(text) } },
    );
    // The first press is still at work: it will show its outcome.
    if (done.state === 'pending') return;
    flash = { ok: done.value };
  } catch (error) {
    if (error instanceof OnceKeyUnavailableError) {
      svc.deps.logger.error({ ...log, err: error }, 'store failed before an admin operation');
      await showPlace(svc, args, { id: view.id }, place, {
        problem: md`I could not check whether this was already done (a storage problem on our side); nothing was changed — try again in a minute.`,
      });
      return;
    }
    if (error instanceof AdminRefusal) {
      flash = { problem: error.problem };
    } else {
      const explanation = await explainFailure(svc.deps, error, {
        action: `admin ${action.action_id}`,
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
      if ('connect' in explanation) {
        await args.client.views
          .update({
            view_id: view.id,
            view: modal({
              callbackId: VIEW.info,
              title: view.title.text,
              blocks: connectBlocks(explanation.connect),
            }),
          })
          .catch((e: unknown) => svc.deps.logger.error({ ...log, err: e }, 'views.update failed'));
        return;
      }
      flash = { problem: explanation.text };
    }
  }
  await showPlace(svc, args, { id: view.id }, place, flash, acting);
}
