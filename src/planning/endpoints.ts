/**
 * The single source of truth for the Team Planning Service's operations: one row per operation of
 * the specification (77), grouped by area. The client's namespaces, the sandbox's router and the
 * OpenAPI walk test are all built from this table.
 */
import type { z } from 'zod';
import * as m from './models.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointDef<
  P extends string = string,
  R extends z.ZodType = z.ZodType,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** `operationId` in the service's OpenAPI document. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path template relative to the base URL, e.g. `/teams/{teamId}`. */
  readonly path: P;
  readonly result: R;
  /** JSON body schema (operations with a payload). */
  readonly body?: B;
  /** Query string schema (operations whose input is a query). */
  readonly query?: Q;
  /** The avatar upload: multipart with one `avatar` field. */
  readonly multipart?: true;
  /** For paged lists: the key of the items array, so `for await` can walk every page. */
  readonly items?: string;
  /**
   * Whether sending it twice leaves the service as sending it once would. Only such operations are
   * retried once a request may have reached the service (a timeout, a 5xx); the others are resent
   * only when no connection was made at all. Decided per operation, not by HTTP method: a PUT
   * (`features.advance`) can move a feature twice, while a POST update can safely be repeated.
   */
  readonly idempotent: boolean;
  /** Answers without credentials (an invitation link is opened before its reader has an account). */
  readonly anonymous?: true;
  /**
   * Changes a feature or something of it (tasks, minutes, assumptions): refused while the feature
   * is in deep context, where it is read-only.
   */
  readonly editsFeature?: true;
}

function ep<
  const P extends string,
  R extends z.ZodType,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(def: EndpointDef<P, R, B, Q>): EndpointDef<P, R, B, Q> {
  return def;
}

const F = '/teams/{teamId}/channels/{channelId}/features/{featureId}' as const;
const T = `${F}/tasks/{taskId}` as const;

export const endpoints = {
  billing: {
    invoiceList: ep({
      operationId: 'billingInvoiceList',
      method: 'GET',
      idempotent: true,
      path: '/billing/invoices',
      query: m.PageQuery,
      result: m.InvoiceList,
      items: 'invoices',
    }),
    planList: ep({
      operationId: 'billingPlanList',
      method: 'GET',
      idempotent: true,
      path: '/billing/price-plans',
      result: m.PricePlanList,
    }),
    planCheckout: ep({
      operationId: 'billingPlanCheckout',
      method: 'GET',
      idempotent: true,
      path: '/billing/price-plans/{pricePlanId}',
      query: m.CheckoutQuery,
      result: m.Checkout,
    }),
    subscriptionRead: ep({
      operationId: 'billingSubscriptionRead',
      method: 'GET',
      idempotent: true,
      path: '/billing/subscription',
      result: m.SubscriptionNullable,
    }),
    subscriptionUpdate: ep({
      operationId: 'billingSubscriptionUpdate',
      method: 'PUT',
      idempotent: true,
      path: '/billing/subscription/price-plans/{pricePlanId}',
      result: m.Subscription,
    }),
    subscriptionCancel: ep({
      operationId: 'billingSubscriptionCancel',
      method: 'DELETE',
      idempotent: true,
      path: '/billing/subscription',
      result: m.Subscription,
    }),
  },
  account: {
    read: ep({
      operationId: 'accountRead',
      method: 'GET',
      idempotent: true,
      path: '/account',
      result: m.Account,
    }),
    update: ep({
      operationId: 'accountUpdate',
      method: 'POST',
      idempotent: true,
      path: '/account',
      body: m.PayloadAccountUpdate,
      result: m.Account,
    }),
    close: ep({
      operationId: 'accountClose',
      method: 'DELETE',
      idempotent: true,
      path: '/account',
      result: m.Ok,
    }),
    avatar: ep({
      operationId: 'accountAvatar',
      method: 'POST',
      idempotent: true,
      path: '/account/avatar',
      body: m.AvatarInput,
      multipart: true,
      result: m.Account,
    }),
    eventsList: ep({
      operationId: 'accountEventsList',
      method: 'GET',
      idempotent: true,
      path: '/account/events',
      query: m.EventsQuery,
      result: m.EventsList,
      items: 'events',
    }),
  },
  serviceAccounts: {
    list: ep({
      operationId: 'serviceAccountList',
      method: 'GET',
      idempotent: true,
      path: '/service-accounts',
      query: m.PageQuery,
      result: m.ServiceAccountsList,
      items: 'serviceAccounts',
    }),
    create: ep({
      operationId: 'serviceAccountCreate',
      method: 'POST',
      idempotent: false,
      path: '/service-accounts',
      body: m.PayloadServiceAccountCreate,
      result: m.ServiceAccount,
    }),
    read: ep({
      operationId: 'serviceAccountRead',
      method: 'GET',
      idempotent: true,
      path: '/service-accounts/{accountId}',
      result: m.ServiceAccount,
    }),
    update: ep({
      operationId: 'serviceAccountUpdate',
      method: 'POST',
      idempotent: true,
      path: '/service-accounts/{accountId}',
      body: m.PayloadServiceAccountUpdate,
      result: m.ServiceAccount,
    }),
    close: ep({
      operationId: 'serviceAccountClose',
      method: 'DELETE',
      idempotent: true,
      path: '/service-accounts/{accountId}',
      result: m.ServiceAccount,
    }),
    regenerate: ep({
      operationId: 'serviceAccountRegenerate',
      method: 'PUT',
      // A second regenerate only replaces a token nobody received.
      idempotent: true,
      path: '/service-accounts/{accountId}',
      result: m.ServiceAccount,
    }),
  },
  teams: {
    listAll: ep({
      operationId: 'teamListAll',
      method: 'GET',
      idempotent: true,
      path: '/teams',
      query: m.PageQuery,
      result: m.TeamsList,
      items: 'teams',
    }),
    create: ep({
      operationId: 'teamCreate',
      method: 'POST',
      idempotent: false,
      path: '/teams',
      body: m.PayloadTeamCreate,
      result: m.TeamExpanded,
    }),
    read: ep({
      operationId: 'teamRead',
      method: 'GET',
      idempotent: true,
      path: '/teams/{teamId}',
      result: m.TeamExpanded,
    }),
    update: ep({
      operationId: 'teamUpdate',
      method: 'POST',
      idempotent: true,
      path: '/teams/{teamId}',
      body: m.PayloadTeamUpdate,
      result: m.TeamExpanded,
    }),
    delete: ep({
      operationId: 'teamDelete',
      method: 'DELETE',
      idempotent: true,
      path: '/teams/{teamId}',
      result: m.Ok,
    }),
    listUser: ep({
      operationId: 'teamListUser',
      method: 'GET',
      idempotent: true,
      path: '/teams/users/{userId}',
      query: m.PageQuery,
      result: m.TeamsExpandedList,
      items: 'teams',
    }),
    assign: ep({
      operationId: 'teamAssign',
      method: 'PUT',
      idempotent: true,
      path: '/teams/{teamId}/users/{userId}',
      result: m.User,
    }),
    unassign: ep({
      operationId: 'teamUnassign',
      method: 'DELETE',
      idempotent: true,
      path: '/teams/{teamId}/users/{userId}',
      result: m.Ok,
    }),
  },
  channels: {
    create: ep({
      operationId: 'channelCreate',
      method: 'POST',
      idempotent: false,
      path: '/teams/{teamId}/channels',
      body: m.PayloadChannelCreate,
      result: m.TeamExpanded,
    }),
    update: ep({
      operationId: 'channelUpdate',
      method: 'POST',
      idempotent: true,
      path: '/teams/{teamId}/channels/{channelId}',
      body: m.PayloadChannelUpdate,
      result: m.TeamExpanded,
    }),
    delete: ep({
      operationId: 'channelDelete',
      method: 'DELETE',
      idempotent: true,
      path: '/teams/{teamId}/channels/{channelId}',
      result: m.Ok,
    }),
    listMembers: ep({
      operationId: 'channelListMembers',
      method: 'GET',
      idempotent: true,
      path: '/teams/{teamId}/channels/{channelId}/users',
      query: m.PageQuery,
      result: m.ChannelMembersList,
      items: 'members',
    }),
    listProspects: ep({
      operationId: 'channelListProspects',
      method: 'GET',
      idempotent: true,
      path: '/teams/{teamId}/channels/{channelId}/prospects',
      query: m.ProspectsQuery,
      result: m.ChannelProspectsList,
    }),
    assign: ep({
      operationId: 'channelAssign',
      method: 'PUT',
      idempotent: true,
      path: '/teams/{teamId}/channels/{channelId}/users/{userId}',
      result: m.User,
    }),
    unassign: ep({
      operationId: 'channelUnassign',
      method: 'DELETE',
      idempotent: true,
      path: '/teams/{teamId}/channels/{channelId}/users/{userId}',
      result: m.Ok,
    }),
  },
  features: {
    list: ep({
      operationId: 'featureList',
      method: 'GET',
      idempotent: true,
      path: '/teams/{teamId}/channels/{channelId}/features',
      query: m.FeatureListQuery,
      result: m.FeaturesList,
      items: 'features',
    }),
    create: ep({
      operationId: 'featureCreate',
      method: 'POST',
      idempotent: false,
      path: '/teams/{teamId}/channels/{channelId}/features',
      body: m.PayloadFeatureCreate,
      result: m.Feature,
    }),
    read: ep({ operationId: 'featureRead', method: 'GET', idempotent: true, path: F, result: m.Feature }),
    update: ep({
      operationId: 'featureUpdate',
      method: 'POST',
      idempotent: true,
      editsFeature: true,
      path: F,
      body: m.PayloadFeatureUpdate,
      result: m.Feature,
    }),
    advance: ep({
      operationId: 'featureAdvance',
      method: 'PUT',
      // A PUT, but each one moves the feature a stage further.
      idempotent: false,
      path: F,
      result: m.Feature,
    }),
    delete: ep({ operationId: 'featureDelete', method: 'DELETE', idempotent: true, path: F, result: m.Ok }),
  },
  tasks: {
    list: ep({
      operationId: 'taskList',
      method: 'GET',
      idempotent: true,
      path: `${F}/tasks`,
      query: m.PageQuery,
      result: m.TasksList,
      items: 'tasks',
    }),
    create: ep({
      operationId: 'taskCreate',
      method: 'POST',
      idempotent: false,
      editsFeature: true,
      path: `${F}/tasks`,
      body: m.PayloadTaskCreate,
      result: m.TaskExpanded,
    }),
    read: ep({ operationId: 'taskRead', method: 'GET', idempotent: true, path: T, result: m.TaskExpanded }),
    update: ep({
      operationId: 'taskUpdate',
      method: 'POST',
      idempotent: true,
      editsFeature: true,
      path: T,
      body: m.PayloadTaskUpdate,
      result: m.Task,
    }),
    delete: ep({
      operationId: 'taskDelete',
      method: 'DELETE',
      idempotent: true,
      editsFeature: true,
      path: T,
      result: m.Ok,
    }),
    assign: ep({
      operationId: 'taskAssign',
      method: 'PUT',
      idempotent: true,
      editsFeature: true,
      path: `${T}/users/{userId}`,
      result: m.Task,
    }),
    listCandidates: ep({
      operationId: 'taskListCandidates',
      method: 'GET',
      idempotent: true,
      path: `${T}/candidates`,
      result: m.TaskCandidatesList,
    }),
    discoveryCreate: ep({
      operationId: 'taskDiscoveryCreate',
      method: 'POST',
      idempotent: false,
      editsFeature: true,
      path: `${T}/discoveries`,
      body: m.PayloadTaskDiscoveryCreate,
      result: m.MinuteDiscovery,
    }),
    discoveryUpdate: ep({
      operationId: 'taskDiscoveryUpdate',
      method: 'POST',
      idempotent: true,
      editsFeature: true,
      path: `${T}/discoveries/{discoveryId}`,
      body: m.PayloadTaskDiscoveryUpdate,
      result: m.MinuteDiscovery,
    }),
    discoveryDelete: ep({
      operationId: 'taskDiscoveryDelete',
      method: 'DELETE',
      idempotent: true,
      editsFeature: true,
      path: `${T}/discoveries/{discoveryId}`,
      result: m.Ok,
    }),
    feedbackCreate: ep({
      operationId: 'taskFeedbackCreate',
      method: 'POST',
      idempotent: false,
      editsFeature: true,
      path: `${T}/feedback`,
      body: m.PayloadTaskFeedbackCreate,
      result: m.MinuteFeedback,
    }),
    feedbackUpdate: ep({
      operationId: 'taskFeedbackUpdate',
      method: 'POST',
      idempotent: true,
      editsFeature: true,
      path: `${T}/feedback/{feedbackId}`,
      body: m.PayloadTaskFeedbackUpdate,
      result: m.MinuteFeedback,
    }),
    feedbackDelete: ep({
      operationId: 'taskFeedbackDelete',
      method: 'DELETE',
      idempotent: true,
      editsFeature: true,
      path: `${T}/feedback/{feedbackId}`,
      result: m.Ok,
    }),
    feedbackReply: ep({
      operationId: 'taskFeedbackReply',
      method: 'POST',
      idempotent: true,
      editsFeature: true,
      path: `${T}/feedback/{feedbackId}/reply`,
      body: m.PayloadTaskFeedbackReply,
      result: m.MinuteFeedback,
    }),
  },
  assumptions: {
    list: ep({
      operationId: 'assumptionList',
      method: 'GET',
      idempotent: true,
      path: `${F}/assms`,
      query: m.PageQuery,
      result: m.AssumptionsList,
      items: 'assumptions',
    }),
    create: ep({
      operationId: 'assumptionCreate',
      method: 'POST',
      idempotent: false,
      editsFeature: true,
      path: `${F}/assms`,
      body: m.PayloadAssmCreate,
      result: m.Assumption,
    }),
    update: ep({
      operationId: 'assumptionUpdate',
      method: 'POST',
      idempotent: true,
      editsFeature: true,
      path: `${F}/assms/{assmId}`,
      body: m.PayloadAssmUpdate,
      result: m.Assumption,
    }),
    delete: ep({
      operationId: 'assumptionDelete',
      method: 'DELETE',
      idempotent: true,
      editsFeature: true,
      path: `${F}/assms/{assmId}`,
      result: m.Ok,
    }),
    experiment: ep({
      operationId: 'assumptionExperiment',
      method: 'POST',
      idempotent: true,
      editsFeature: true,
      path: `${F}/assms/{assmId}/exp`,
      body: m.PayloadAssmExperiment,
      result: m.Assumption,
    }),
  },
  notions: {
    search: ep({
      operationId: 'notionSearch',
      method: 'GET',
      idempotent: true,
      path: '/notions',
      query: m.SearchQuery,
      result: m.NotionsList,
      items: 'notions',
    }),
    create: ep({
      operationId: 'notionCreate',
      method: 'POST',
      idempotent: false,
      path: '/notions',
      body: m.PayloadNotionCreate,
      result: m.Notion,
    }),
    read: ep({
      operationId: 'notionRead',
      method: 'GET',
      idempotent: true,
      path: '/notions/{notionId}',
      result: m.Notion,
    }),
    update: ep({
      operationId: 'notionUpdate',
      method: 'POST',
      idempotent: true,
      path: '/notions/{notionId}',
      body: m.PayloadNotionUpdate,
      result: m.Notion,
    }),
    delete: ep({
      operationId: 'notionDelete',
      method: 'DELETE',
      idempotent: true,
      path: '/notions/{notionId}',
      result: m.Ok,
    }),
  },
  experiences: {
    list: ep({
      operationId: 'experienceList',
      method: 'GET',
      idempotent: true,
      path: '/xp',
      query: m.PageQuery,
      result: m.ExperiencesList,
      items: 'experiences',
    }),
    listPeer: ep({
      operationId: 'experienceListPeer',
      method: 'GET',
      idempotent: true,
      path: '/xp/users/{userId}',
      query: m.PageQuery,
      result: m.ExperiencesList,
      items: 'experiences',
    }),
    read: ep({
      operationId: 'experienceRead',
      method: 'GET',
      idempotent: true,
      path: '/xp/notions/{notionId}',
      result: m.Experience,
    }),
    readPeer: ep({
      operationId: 'experienceReadPeer',
      method: 'GET',
      idempotent: true,
      path: '/xp/notions/{notionId}/users/{userId}',
      result: m.Experience,
    }),
    evaluate: ep({
      operationId: 'experienceEvaluate',
      method: 'PUT',
      // Only the last grade within 24 hours counts: the same grade again changes nothing.
      idempotent: true,
      path: '/xp/notions/{notionId}/grade/{grade}',
      result: m.Experience,
    }),
    evaluatePeer: ep({
      operationId: 'experienceEvaluatePeer',
      method: 'PUT',
      idempotent: true,
      path: '/xp/notions/{notionId}/grade/{grade}/users/{userId}',
      result: m.Experience,
    }),
  },
  invitations: {
    list: ep({
      operationId: 'invitationList',
      method: 'GET',
      idempotent: true,
      path: '/invitations',
      query: m.PageQuery,
      result: m.InvitationsList,
      items: 'invitations',
    }),
    create: ep({
      operationId: 'invitationCreate',
      method: 'POST',
      idempotent: false,
      path: '/invitations',
      body: m.PayloadInvitationCreate,
      result: m.Invitation,
    }),
    read: ep({
      operationId: 'invitationRead',
      method: 'GET',
      // Each read counts a view.
      idempotent: false,
      anonymous: true,
      path: '/invitations/{inviteId}',
      result: m.Invitation,
    }),
    update: ep({
      operationId: 'invitationUpdate',
      method: 'POST',
      idempotent: true,
      path: '/invitations/{inviteId}',
      body: m.PayloadInvitationUpdate,
      result: m.Invitation,
    }),
    accept: ep({
      operationId: 'invitationAccept',
      method: 'PUT',
      // Each accept counts a use.
      idempotent: false,
      path: '/invitations/{inviteId}',
      result: m.Invitation,
    }),
    delete: ep({
      operationId: 'invitationDelete',
      method: 'DELETE',
      idempotent: true,
      path: '/invitations/{inviteId}',
      result: m.Ok,
    }),
  },
  deepContext: {
    search: ep({
      operationId: 'deepContextSearch',
      method: 'GET',
      idempotent: true,
      path: '/deep-context',
      query: m.SearchQuery,
      result: m.DeepContextList,
      items: 'features',
    }),
    read: ep({
      operationId: 'deepContextRead',
      method: 'GET',
      idempotent: true,
      path: '/deep-context/{featureId}',
      result: m.FeatureExpanded,
    }),
    delete: ep({
      operationId: 'deepContextDelete',
      method: 'DELETE',
      idempotent: true,
      path: '/deep-context/{featureId}',
      result: m.Ok,
    }),
  },
} as const;

export type Endpoints = typeof endpoints;
export type Area = keyof Endpoints;

/** Path parameter names of a template, in order: `'/a/{x}/b/{y}'` → `['x', 'y']`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? [N, ...PathParamNames<Rest>]
  : [];

/** Runtime twin of {@link PathParamNames}. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
}

/** Every operation, flattened: handy for tables, routers and walks. */
export interface OperationRef {
  area: Area;
  name: string;
  /** `area.name`, the name used in errors and request events. */
  operation: string;
  def: EndpointDef;
}

export const operations: readonly OperationRef[] = Object.entries(endpoints).flatMap(([area, ops]) =>
  Object.entries(ops).map(([name, def]) => ({
    area: area as Area,
    name,
    operation: `${area}.${name}`,
    def: def as EndpointDef,
  })),
);
