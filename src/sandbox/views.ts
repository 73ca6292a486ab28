/**
 * State records → the contract's JSON shapes (openapi.json component schemas). Absent values are
 * left out rather than sent as `null`, which the published schemas do not allow.
 */
import { addDays } from 'date-fns';
import type { PageQuery } from '../planning/models.js';
import { LIMITS } from '../planning/models.js';
import { findPlan, PRICE_PLANS, usersMax } from './plans.js';
import { canAdvance } from './stages.js';
import type {
  AccountRec,
  AssumptionRec,
  ChannelRec,
  CheckoutRec,
  DiscoveryRec,
  EventRec,
  ExperienceRec,
  FeatureRec,
  FeedbackRec,
  InvitationRec,
  InvoiceRec,
  NotionRec,
  OrgRec,
  TaskRec,
  TeamRec,
} from './state.js';
import type { Store } from './store.js';
import { isoTime, unixSeconds } from './time.js';

/** How many grades `recent` shows. */
const RECENT_GRADES = 5;
/** An experience is considered current for a year after its last evaluation. */
const EXPERIENCE_TTL_DAYS = 365;

const stamps = (rec: { createdAt: number; updatedAt: number }) => ({
  createdAt: isoTime(rec.createdAt),
  updatedAt: isoTime(rec.updatedAt),
});

/** `{pageNumber, pageSize, total, <key>: items}` for one page. */
export function page<K extends string, T>(key: K, items: readonly T[], query: PageQuery | undefined) {
  const pageNumber = query?.pageNumber ?? 1;
  const pageSize = query?.pageSize ?? LIMITS.pageSize.default;
  const start = (pageNumber - 1) * pageSize;
  return { pageNumber, pageSize, total: items.length, [key]: items.slice(start, start + pageSize) } as {
    pageNumber: number;
    pageSize: number;
    total: number;
  } & Record<K, T[]>;
}

// Accounts --------------------------------------------------------------------------------------

function userFields(account: AccountRec) {
  return {
    id: account.id,
    provider: 'service',
    userName: account.userName,
    userEmail: account.userEmail,
    userAvatarId: account.avatarId,
    userColor: account.userColor,
    serviceAccount: true,
    puppetAccount: false,
    roleSite: 'user',
    // 0 means open; a close in the first second of the epoch (fake clocks) must still read as closed.
    closedTime: account.closedTime === 0 ? 0 : Math.max(1, unixSeconds(account.closedTime)),
    ...stamps(account),
  };
}

/** User: the account as seen within one organization. */
export function userView(store: Store, account: AccountRec, orgId: string) {
  return { ...userFields(account), teams: store.userTeams(orgId, account.id), roleOrg: account.roles[orgId] };
}

/** ServiceAccount: the token only for callers who may act on the account (never to a mere reader). */
export function serviceAccountView(store: Store, account: AccountRec, orgId: string, withToken: boolean) {
  return {
    ...userView(store, account, orgId),
    serviceToken: withToken ? account.serviceToken : undefined,
    apiCalls: account.apiCalls,
  };
}

export function organizationView(store: Store, org: OrgRec) {
  const members = store.membersOf(org.id);
  return {
    id: org.id,
    orgName: org.orgName,
    orgOwners: members.filter((m) => m.roles[org.id] === 'owner').map((m) => m.id),
    orgUsersMax: usersMax(org),
    orgUsersCount: members.length,
    ...stamps(org),
  };
}

/** Account: the caller across every organization it belongs to. */
export function accountView(store: Store, account: AccountRec) {
  const orgIds = Object.keys(account.roles);
  return {
    ...userFields(account),
    teams: orgIds.flatMap((orgId) => store.userTeams(orgId, account.id).map((team) => ({ orgId, ...team }))),
    roleOrg: orgIds.map((orgId) => ({ orgId, role: account.roles[orgId] })),
    orgs: orgIds.map((orgId) => organizationView(store, store.org(orgId))),
    orgsTeams: orgIds.map((orgId) => ({
      orgId,
      teamIds: store.userTeams(orgId, account.id).map((team) => team.teamId),
    })),
    apiCalls: account.apiCalls,
  };
}

// Teams and channels ----------------------------------------------------------------------------

export const teamView = (team: TeamRec) => ({ id: team.id, teamName: team.teamName, ...stamps(team) });

const channelView = (channel: ChannelRec) => ({
  id: channel.id,
  isDefault: channel.isDefault,
  channelName: channel.channelName,
  channelDesc: channel.channelDesc,
});

export const teamExpandedView = (team: TeamRec) => ({
  ...teamView(team),
  channels: team.channels.map(channelView),
});

// Features, assumptions, tasks ------------------------------------------------------------------

export function assumptionView(assm: AssumptionRec) {
  return {
    id: assm.id,
    authorUserId: assm.authorUserId,
    heading: assm.heading,
    experiment: { ...assm.experiment },
  };
}

function assumptionLiteView(assm: AssumptionRec) {
  const { details: _details, ...experiment } = assm.experiment;
  return { id: assm.id, authorUserId: assm.authorUserId, experiment };
}

export function taskView(task: TaskRec) {
  return {
    id: task.id,
    assigneeUserId: task.assigneeUserId,
    heading: task.heading,
    state: task.state,
    notionIds: [...task.notionIds],
  };
}

export const discoveryView = (d: DiscoveryRec) => ({
  id: d.id,
  iat: unixSeconds(d.iat),
  iteration: d.iteration,
  authorUserId: d.authorUserId,
  details: d.details,
});

export const feedbackView = (f: FeedbackRec) => ({
  id: f.id,
  iat: unixSeconds(f.iat),
  iteration: f.iteration,
  authorUserId: f.authorUserId,
  issue: f.issue,
  message: f.message,
  reply: f.reply,
});

export function taskExpandedView(store: Store, orgId: string, task: TaskRec) {
  const { notionIds: _ids, ...lite } = taskView(task);
  return {
    ...lite,
    details: task.details,
    minute: {
      iteration: task.iteration,
      discoveries: task.discoveries.map(discoveryView),
      feedback: task.feedback.map(feedbackView),
    },
    notions: task.notionIds.flatMap((id) => {
      const notion = store.state.notions[id];
      return notion && notion.orgId === orgId ? [notionView(notion)] : [];
    }),
  };
}

function featureFields(feature: FeatureRec) {
  return {
    id: feature.id,
    teamId: feature.teamId,
    channelId: feature.channelId,
    heading: feature.heading,
    authorUserId: feature.authorUserId,
    stage: feature.stage,
    canAdvance: canAdvance(feature),
    focus: feature.focus,
    priority: feature.priority,
    ...stamps(feature),
  };
}

/** Feature: assumptions in full, tasks without their minutes. */
export const featureView = (feature: FeatureRec) => ({
  ...featureFields(feature),
  details: feature.details,
  assumptions: feature.assumptions.map(assumptionView),
  tasks: feature.tasks.map(taskView),
});

/** FeatureLite, as lists return it: no details, assumptions without heading or experiment details. */
export const featureLiteView = (feature: FeatureRec) => ({
  ...featureFields(feature),
  assumptions: feature.assumptions.map(assumptionLiteView),
  tasks: feature.tasks.map(taskView),
});

/** FeatureExpanded: team and channel names, tasks with minutes and notions. */
export function featureExpandedView(store: Store, feature: FeatureRec) {
  const team = store.team(feature.orgId, feature.teamId);
  return {
    ...featureView(feature),
    tasks: feature.tasks.map((task) => taskExpandedView(store, feature.orgId, task)),
    teamName: team.teamName,
    channelName: store.channel(team, feature.channelId).channelName,
  };
}

// Notions and experiences -----------------------------------------------------------------------

export const notionView = (notion: NotionRec) => ({ id: notion.id, value: notion.value });

function evaluationView(grades: ExperienceRec['self']) {
  const values = grades.map((g) => g.grade);
  const average = values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
  return {
    count: values.length,
    average: Math.round(average * 100) / 100,
    recent: values.slice(-RECENT_GRADES),
  };
}

/** Experience: counts and averages only — who graded never leaves the sandbox. */
export function experienceView(store: Store, exp: ExperienceRec) {
  return {
    id: exp.id,
    userId: exp.userId,
    notion: notionView(store.notion(exp.orgId, exp.notionId)),
    selfEval: evaluationView(exp.self),
    peerEval: evaluationView(exp.peer),
    expiresAt: isoTime(addDays(exp.updatedAt, EXPERIENCE_TTL_DAYS).getTime()),
    ...stamps(exp),
  };
}

// Invitations -----------------------------------------------------------------------------------

export function invitationView(store: Store, inv: InvitationRec) {
  return {
    id: inv.id,
    orgId: inv.orgId,
    teamId: inv.teamId,
    userId: inv.userId,
    inviteName: inv.inviteName,
    inviteOrgRole: inv.inviteOrgRole,
    inviteOrgName: store.org(inv.orgId).orgName,
    inviteUses: inv.inviteUses,
    inviteUsesMax: inv.inviteUsesMax,
    inviteViews: inv.inviteViews,
    expiresAt: isoTime(inv.expiresAt),
    ...stamps(inv),
  };
}

// Billing ---------------------------------------------------------------------------------------

export const pricePlanListView = () => ({
  total: PRICE_PLANS.length,
  pricePlans: PRICE_PLANS.map((p) => ({ ...p })),
});

export function checkoutView(checkout: CheckoutRec, origin: string) {
  const plan = findPlan(checkout.pricePlanId);
  return {
    id: checkout.id,
    productId: plan?.productId,
    variantId: plan?.variantId,
    darkMode: checkout.darkMode,
    url: `${origin}/sandbox/checkout/${checkout.id}`,
    expiresAt: isoTime(checkout.expiresAt),
  };
}

/** Subscription, or `null` when the organization has none. */
export function subscriptionView(store: Store, org: OrgRec, origin: string) {
  const sub = org.subscription;
  if (!sub) return null;
  const plan = findPlan(sub.pricePlanId);
  return {
    subscriptionId: sub.subscriptionId,
    status: sub.status,
    url: `${origin}/sandbox/subscription/${sub.subscriptionId}/payment-details`,
    orderId: sub.orderId,
    productId: plan?.productId,
    variantId: plan?.variantId,
    customerId: sub.customerId,
    cardBrand: 'visa',
    cardLast4: '4242',
    pricePlan: plan ? { ...plan } : undefined,
    usersCount: store.membersOf(org.id).length,
    renewsAt: sub.status === 'cancelled' ? undefined : isoTime(sub.renewsAt),
    endsAt: sub.endsAt === undefined ? undefined : isoTime(sub.endsAt),
    trialEndsAt: plan?.trialEnabled
      ? isoTime(addDays(sub.createdAt, plan.trialIntervalCount).getTime())
      : undefined,
    ...stamps(sub),
  };
}

export function invoiceView(invoice: InvoiceRec, origin: string) {
  const plan = findPlan(invoice.pricePlanId);
  return {
    id: invoice.id,
    subscriptionId: invoice.subscriptionId,
    productId: plan?.productId,
    variantId: plan?.variantId,
    customerId: invoice.customerId,
    pricePlan: plan
      ? { id: plan.id, name: plan.productName, interval: plan.interval, intervalCount: plan.intervalCount }
      : undefined,
    status: 'paid',
    url: `${origin}/sandbox/invoices/${invoice.id}`,
    refunded: false,
    subtotal: invoice.subtotal,
    tax: invoice.tax,
    total: invoice.subtotal + invoice.tax,
    cardBrand: 'visa',
    cardLast4: '4242',
    createdAt: isoTime(invoice.createdAt),
    updatedAt: isoTime(invoice.createdAt),
  };
}

// Events ----------------------------------------------------------------------------------------

export function eventView(event: EventRec) {
  const { orgId: _org, at: _at, recipients: _to, ...wire } = event;
  return wire;
}
