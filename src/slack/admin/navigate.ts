/**
 * Moving through the admin modal: a section of the root view is pushed (loading at once, filled
 * after; the Home tab opens the links section as the modal itself); within a section view, a page,
 * a team's channels, a channel's members, a search or "back" update the view in place, with its
 * hash so an older click never overwrites a newer view.
 */
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Invitation } from '../../planning/index.js';
import { slackErrorCode } from '../../slack-api/index.js';
import { type ActionArgs, actionValue, type ClosedArgs, type ViewHandler } from '../bolt/routes.js';
import { digestSchedule } from '../digest/index.js';
import { planningOf } from '../kit/acting.js';
import type { Acting } from '../kit/identity.js';
import { loadModal, modalRequest } from '../kit/modal.js';
import { peopleOf } from '../kit/people.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { showFailure, viewSurface } from '../kit/surfaces.js';
import { billingView } from './billing.js';
import {
  AdminPlace,
  type Flash,
  PAGE_SIZE,
  placeOf,
  placeTitle,
  SECTIONS,
  type SectionName,
} from './common.js';
import { invitationsView } from './invitations.js';
import { linkedTeams, linksView, pageOf } from './links.js';
import { notionsView } from './notions.js';
import { peopleView } from './people.js';
import { channelView, teamsView, teamView } from './teams.js';

const isSection = (name: string | undefined): name is SectionName => Boolean(name && name in SECTIONS);

/**
 * Shows a section of the admin modal: pushed over the root view by its buttons, or opened as the
 * modal itself (the Home tab's links button).
 */
async function loadSection(
  svc: Services,
  args: ActionArgs,
  name: string | undefined,
  how: { push: boolean },
): Promise<void> {
  if (!isSection(name)) return;
  const place: AdminPlace = { section: name, page: 1 };
  await loadModal(
    {
      ...modalRequest(svc, args, args.body.trigger_id, `admin ${name}`),
      title: placeTitle(place),
      push: how.push,
    },
    (acting) => renderPlace(svc, acting, place, undefined, args.client as WebClient),
  );
}

export interface ViewRef {
  id: string;
  hash?: string;
}

/** Shows `place` in the view `view` (with its hash when known), or the failure there in one sentence. */
export async function showPlace(
  svc: Services,
  args: { client: WebClient; context: ActionArgs['context'] },
  view: ViewRef,
  place: AdminPlace,
  flash?: Flash,
  acting?: Acting,
): Promise<void> {
  const planning = planningOf(args.context);
  try {
    const next: ModalView = await renderPlace(
      svc,
      acting ?? (await planning.acting()),
      place,
      flash,
      args.client,
    );
    await args.client.views.update({
      view_id: view.id,
      ...(view.hash ? { hash: view.hash } : {}),
      view: next,
    });
  } catch (error) {
    // A newer view is already shown (another click was quicker): it stays.
    if (slackErrorCode(error) === 'hash_conflict') return;
    await showFailure(svc.deps, viewSurface(args.client, view.id, placeTitle(place)), error, {
      action: `admin ${place.section}`,
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}

/** A page, a team, a channel or back: the section view shows the new place. */
export async function goTo(svc: Services, args: ActionArgs, place: AdminPlace | undefined): Promise<void> {
  const view = args.body.view;
  if (!view || !place) return;
  await showPlace(svc, args, { id: view.id, hash: view.hash }, place);
}

/**
 * *Done* on the checkout link pushed over Billing: the link closes (an empty ack) and Billing,
 * under it, is drawn again from what the service answers now — paying happened on the provider's
 * page, so the subscription it started is shown without reopening the section.
 */
export const checkoutDoneSubmission: ViewHandler<Services> = (svc, args) => {
  const billing = billingUnder(args.view);
  if (!billing) return { ack: undefined };
  return { ack: undefined, work: () => showPlace(svc, args, billing.view, billing.place) };
};

/** *Back* on the checkout: Billing, under it, shown as the service has it — the admin may have paid meanwhile. */
export async function checkoutClosed(svc: Services, args: ClosedArgs): Promise<void> {
  const billing = billingUnder(args.view);
  if (billing) await showPlace(svc, args, billing.view, billing.place);
}

/** The Billing view a checkout was pushed over, and its place, from what the checkout carries. */
function billingUnder(checkout: { private_metadata: string; previous_view_id?: string | null }) {
  const place = placeOf(checkout.private_metadata);
  const id = checkout.previous_view_id;
  return place?.section === 'billing' && id ? { place, view: { id } } : undefined;
}

const paging = (place: AdminPlace) => ({ pageNumber: place.page, pageSize: PAGE_SIZE });

export async function renderPlace(
  svc: Services,
  acting: Acting,
  place: AdminPlace,
  flash?: Flash,
  /** Asks Slack for what a place links to (the last digest of each linked channel). */
  slack?: WebClient,
): Promise<ModalView> {
  const { planning } = acting;
  switch (place.section) {
    case 'people': {
      const page = await planning.serviceAccounts.list(paging(place));
      const people = await peopleOf(
        svc.deps,
        acting.workspaceId,
        page.serviceAccounts.map((account) => account.id),
      );
      const rows = page.serviceAccounts.map((account) => {
        const slackUserId = people.slackUserOf(account.id);
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
      if (!place.teamId) return renderPlace(svc, acting, { section: 'teams', page: 1 }, flash);
      return teamView(place, await planning.teams.read(place.teamId), flash);
    }
    case 'channel': {
      if (!place.teamId || !place.channelId)
        return renderPlace(svc, acting, { section: 'teams', page: 1 }, flash);
      const [team, members, prospects] = await Promise.all([
        planning.teams.read(place.teamId),
        planning.channels.listMembers(place.teamId, place.channelId, paging(place)),
        planning.channels.listProspects(place.teamId, place.channelId, {}),
      ]);
      const shownProspects = prospects.prospects.slice(0, 10);
      const people = await peopleOf(
        svc.deps,
        acting.workspaceId,
        [...members.members, ...shownProspects].map((person) => person.id),
      );
      return channelView(
        place,
        {
          team,
          channelId: place.channelId,
          members: members.members,
          total: members.total,
          prospects: shownProspects,
          slackUserOf: people.slackUserOf,
        },
        flash,
      );
    }
    case 'notions': {
      const page = await planning.notions.search({
        ...paging(place),
        ...(place.search ? { searchTerm: place.search } : {}),
      });
      return notionsView(place, page.notions, page.total, flash);
    }
    case 'links': {
      // This workspace's links only: the store is keyed by workspace.
      const all = await svc.deps.store.links.listByWorkspace(acting.workspaceId);
      const shown = pageOf(all, place);
      const [schedules, teams, canvases] = await Promise.all([
        Promise.all(shown.map((link) => digestSchedule(svc, link, slack))),
        linkedTeams(
          acting,
          shown.map((link) => link.teamId),
        ),
        svc.deps.store.canvases.enabledIn(
          acting.workspaceId,
          shown.map((link) => link.slackChannelId),
        ),
      ]);
      return linksView(place, schedules, teams, all.length, flash, canvases);
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

/** A section button of the root view. */
export const adminSectionAction = (svc: Services, args: ActionArgs) =>
  loadSection(svc, args, actionValue(args.action), { push: true });

/** The Home tab's "Manage links and digests": the admin modal, opened at its links section. */
export const adminLinksAction = (svc: Services, args: ActionArgs) =>
  loadSection(svc, args, 'links', { push: false });

/** Previous, Next, Open, Members, ◀ Back: the button carries the place to show. */
export const adminGoAction = (svc: Services, args: ActionArgs) =>
  goTo(svc, args, parseCarried(AdminPlace, actionValue(args.action)));
