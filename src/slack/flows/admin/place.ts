/**
 * Renders an admin section view from the service, with the admin's own client: what the view at a
 * place shows, fetched one page at a time (the service's pageNumber/pageSize).
 */
import type { ModalView } from '@slack/types';
import type { Invitation } from '../../../planning/index.js';
import { billingView } from '../../blocks/admin/billing.js';
import { type AdminPlace, type Flash, PAGE_SIZE } from '../../blocks/admin/common.js';
import { invitationsView } from '../../blocks/admin/invitations.js';
import { notionsView } from '../../blocks/admin/notions.js';
import { peopleView } from '../../blocks/admin/people.js';
import { channelView, teamsView, teamView } from '../../blocks/admin/teams.js';
import type { Acting } from '../../context/identity.js';
import type { Services } from '../../context/services.js';

/** Which Slack user of the workspace acts as each planning user (by service account or user id). */
export async function slackUsersByPlanningUser(svc: Services, workspaceId: string) {
  const identities = await svc.deps.store.identities.listByWorkspace(workspaceId);
  const byUser = new Map<string, string>();
  for (const identity of identities) {
    byUser.set(identity.planningUserId, identity.slackUserId);
    byUser.set(identity.serviceAccountId, identity.slackUserId);
  }
  return (planningUserId: string) => byUser.get(planningUserId);
}

const paging = (place: AdminPlace) => ({ pageNumber: place.p, pageSize: PAGE_SIZE });

export async function renderPlace(
  svc: Services,
  acting: Acting,
  place: AdminPlace,
  flash?: Flash,
): Promise<ModalView> {
  const { planning } = acting;
  switch (place.s) {
    case 'people': {
      const [page, slackUserOf] = await Promise.all([
        planning.serviceAccounts.list(paging(place)),
        slackUsersByPlanningUser(svc, acting.workspaceId),
      ]);
      const rows = page.serviceAccounts.map((account) => {
        const slackUserId = slackUserOf(account.id);
        return slackUserId ? { account, slackUserId } : { account };
      });
      return peopleView(place, rows, page.total, flash);
    }
    case 'invitations': {
      const page = await planning.invitations.list(paging(place));
      return invitationsView(
        place,
        page.invitations,
        await teamNames(acting, page.invitations),
        page.total,
        flash,
      );
    }
    case 'teams': {
      const page = await planning.teams.listAll(paging(place));
      return teamsView(place, page.teams, page.total, flash);
    }
    case 'team': {
      if (!place.t) return renderPlace(svc, acting, { s: 'teams', p: 1 }, flash);
      return teamView(place, await planning.teams.read(place.t), flash);
    }
    case 'channel': {
      if (!place.t || !place.c) return renderPlace(svc, acting, { s: 'teams', p: 1 }, flash);
      const [team, members, prospects, slackUserOf] = await Promise.all([
        planning.teams.read(place.t),
        planning.channels.listMembers(place.t, place.c, paging(place)),
        planning.channels.listProspects(place.t, place.c, {}),
        slackUsersByPlanningUser(svc, acting.workspaceId),
      ]);
      return channelView(
        place,
        {
          team,
          channelId: place.c,
          members: members.members,
          total: members.total,
          prospects: prospects.prospects.slice(0, 10),
          slackUserOf,
        },
        flash,
      );
    }
    case 'notions': {
      const page = await planning.notions.search({
        ...paging(place),
        ...(place.q ? { searchTerm: place.q } : {}),
      });
      return notionsView(place, page.notions, page.total, flash);
    }
    case 'billing': {
      const [subscription, plans, invoices] = await Promise.all([
        planning.billing.subscriptionRead(),
        planning.billing.planList(),
        planning.billing.invoiceList(paging(place)),
      ]);
      return billingView(
        place,
        { subscription, plans: plans.pricePlans, invoices: invoices.invoices, invoicesTotal: invoices.total },
        flash,
      );
    }
  }
}

/** Names of the teams the invitations point at (one page of teams covers most organizations). */
async function teamNames(acting: Acting, invitations: Invitation[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (invitations.length === 0) return names;
  for await (const team of acting.planning.teams.listAll({ pageSize: 100 })) {
    if (team.teamName) names.set(team.id, team.teamName);
  }
  return names;
}
