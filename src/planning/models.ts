/**
 * zod models of the Team Planning Service, after `shared/contract/openapi.json` (v0.0.2) and NOTES.md.
 *
 * Result models are tolerant: unknown fields are dropped and fields we do not strictly need are
 * optional, because the service adds fields over time and omits empty ones. Only `id` is required
 * where a model has one — nothing in the app can work with a resource it cannot address.
 *
 * Payload and query models are strict about the contract's limits so that a bad value fails locally
 * with a clear message instead of costing a round trip.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------

export const FEATURE_STAGES = ['planning', 'validation', 'execution', 'deep context'] as const;
export type FeatureStage = (typeof FEATURE_STAGES)[number];
/** The stage filter on the query string spells the last stage with a hyphen. */
export const FEATURE_STAGE_FILTERS = ['planning', 'validation', 'execution', 'deep-context'] as const;
export type FeatureStageFilter = (typeof FEATURE_STAGE_FILTERS)[number];
export const FEATURE_FOCI = ['firmitas', 'utilitas', 'venustas'] as const;
export type FeatureFocus = (typeof FEATURE_FOCI)[number];
export const TASK_STATES = ['idle', 'in progress', 'in review', 'done'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const EXPERIMENT_STATES = ['idle', 'running', 'done'] as const;
export type ExperimentState = (typeof EXPERIMENT_STATES)[number];
export const FEEDBACK_ISSUES = [
  'value',
  'complexity',
  'flexibility',
  'testing',
  'security',
  'ci/cd',
  'standards',
  'misc',
] as const;
export type FeedbackIssue = (typeof FEEDBACK_ISSUES)[number];
export const ORG_ROLES = ['owner', 'admin', 'member'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];
/** Roles a service account or an invitation may be given (an owner is never created). */
export const ASSIGNABLE_ROLES = ['admin', 'member'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];
export const USER_COLORS = ['clear', 'red', 'orange', 'yellow', 'green', 'blue', 'pink', 'violet'] as const;
export const SITE_ROLES = ['founder', 'moderator', 'user'] as const;
export const SUBSCRIPTION_STATUSES = [
  'on_trial',
  'active',
  'past_due',
  'cancelled',
  'unpaid',
  'paused',
  'expired',
] as const;
export const INVOICE_STATUSES = ['paid', 'open', 'void', 'uncollectible', 'draft'] as const;
export const BILLING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export const EVENT_TYPES = [
  'features',
  'assumptions',
  'tasks',
  'self-evaluation',
  'peer evaluation',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Contract limits, shared by payload models, Slack forms and the sandbox. */
export const LIMITS = {
  heading: 200,
  details: 2048,
  minuteText: 512,
  notion: 64,
  userName: { min: 3, max: 64 },
  teamName: { min: 3, max: 64 },
  channelName: { min: 3, max: 64 },
  channelDesc: 256,
  inviteName: { min: 3, max: 64 },
  inviteExpireDays: { min: 1, max: 30 },
  inviteUsesMax: { min: 0, max: 500 },
  priority: { min: 1, max: 10 },
  grade: { min: 1, max: 10 },
  pageSize: { min: 1, max: 1500, default: 500 },
  avatar: { width: 256, height: 256, maxBytes: 200 * 1024 },
  checkoutExpiryHours: 23,
  prospects: 10,
  searchTerm: 256,
} as const;

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

const id = z.string();
const optionalString = z.string().optional();
/** The service sends `null` for unset ids in events; treat it as absent. */
const nullableId = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);
const list = <T extends z.ZodType>(item: T) => z.array(item).optional().default([]);
const pageFields = {
  pageNumber: z.number().int().optional(),
  pageSize: z.number().int().optional(),
  total: z.number().int().optional(),
};

/** A list result: `{pageNumber, pageSize, total, <key>: item[]}`. */
function pageOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({ ...pageFields, [key]: list(item) } as {
    [P in K]: ReturnType<typeof list<T>>;
  } & typeof pageFields);
}

// ---------------------------------------------------------------------------------------------
// Result models
// ---------------------------------------------------------------------------------------------

export const Notion = z.object({ id, value: optionalString });
export type Notion = z.infer<typeof Notion>;

export const Organization = z.object({
  id,
  orgName: optionalString,
  orgIconId: optionalString,
  orgOwners: list(z.string()),
  orgUsersMax: z.number().int().optional(),
  orgUsersCount: z.number().int().optional(),
  createdAt: optionalString,
  updatedAt: optionalString,
});
export type Organization = z.infer<typeof Organization>;

const userFields = {
  id,
  provider: optionalString,
  userName: optionalString,
  userEmail: optionalString,
  userAvatarId: optionalString,
  userColor: z.enum(USER_COLORS).optional(),
  serviceAccount: z.boolean().optional(),
  puppetAccount: z.boolean().optional(),
  roleSite: z.enum(SITE_ROLES).optional(),
  /** 0 while the account is open; the time it was closed otherwise. */
  closedTime: z.number().optional().default(0),
  createdAt: optionalString,
  updatedAt: optionalString,
};
const userTeam = z.object({ teamId: z.string(), channelIds: list(z.string()) });

export const User = z.object({
  ...userFields,
  teams: list(userTeam),
  roleOrg: z.enum(ORG_ROLES).optional(),
});
export type User = z.infer<typeof User>;

export const ServiceAccount = User.extend({
  /** The account's JWT. A secret: never log it, never show it in Slack. */
  serviceToken: optionalString,
  apiCalls: z.record(z.string(), z.unknown()).optional(),
});
export type ServiceAccount = z.infer<typeof ServiceAccount>;

export const Account = z.object({
  ...userFields,
  teams: list(z.object({ orgId: optionalString, teamId: z.string(), channelIds: list(z.string()) })),
  roleOrg: list(z.object({ orgId: z.string(), role: z.enum(ORG_ROLES) })),
  orgs: list(Organization),
  orgsTeams: list(z.object({ orgId: z.string(), teamIds: list(z.string()) })),
  apiCalls: z.record(z.string(), z.unknown()).optional(),
});
export type Account = z.infer<typeof Account>;

export const Channel = z.object({
  id,
  isDefault: z.boolean().optional().default(false),
  channelName: optionalString,
  channelDesc: optionalString,
});
export type Channel = z.infer<typeof Channel>;

export const Team = z.object({
  id,
  teamName: optionalString,
  createdAt: optionalString,
  updatedAt: optionalString,
});
export type Team = z.infer<typeof Team>;
export const TeamExpanded = Team.extend({ channels: list(Channel) });
export type TeamExpanded = z.infer<typeof TeamExpanded>;

const experimentLiteFields = {
  authorUserIds: list(z.string()),
  confirmed: z.boolean().optional().default(false),
  state: z.enum(EXPERIMENT_STATES).optional().default('idle'),
};
export const Assumption = z.object({
  id,
  authorUserId: optionalString,
  heading: optionalString,
  experiment: z.object({ ...experimentLiteFields, details: optionalString }).optional(),
});
export type Assumption = z.infer<typeof Assumption>;
export const AssumptionLite = z.object({
  id,
  authorUserId: optionalString,
  experiment: z.object(experimentLiteFields).optional(),
});
export type AssumptionLite = z.infer<typeof AssumptionLite>;

export const MinuteDiscovery = z.object({
  id,
  iat: z.number().optional(),
  iteration: z.number().optional(),
  authorUserId: optionalString,
  details: optionalString,
});
export type MinuteDiscovery = z.infer<typeof MinuteDiscovery>;

export const MinuteFeedback = z.object({
  id,
  iat: z.number().optional(),
  iteration: z.number().optional(),
  authorUserId: optionalString,
  issue: z.enum(FEEDBACK_ISSUES).optional(),
  message: optionalString,
  reply: optionalString,
});
export type MinuteFeedback = z.infer<typeof MinuteFeedback>;

export const Minute = z.object({
  iteration: z.number().optional(),
  discoveries: list(MinuteDiscovery),
  feedback: list(MinuteFeedback),
});
export type Minute = z.infer<typeof Minute>;

const taskFields = {
  id,
  assigneeUserId: optionalString,
  heading: optionalString,
  state: z.enum(TASK_STATES).optional().default('idle'),
};
export const Task = z.object({ ...taskFields, notionIds: list(z.string()) });
export type Task = z.infer<typeof Task>;
export const TaskExpanded = z.object({
  ...taskFields,
  details: optionalString,
  minute: Minute.optional(),
  notions: list(Notion),
});
export type TaskExpanded = z.infer<typeof TaskExpanded>;

export const Candidate = z.object({
  userId: z.string(),
  userName: optionalString,
  userFeatures: z.number().int().optional(),
  ydStress: z.number().optional(),
  ydPrecision: z.number().optional(),
  /** Yerkes-Dodson score 0–100: 40+ is good, 90+ is great. */
  ydScore: z.number().optional(),
});
export type Candidate = z.infer<typeof Candidate>;

const featureFields = {
  id,
  teamId: optionalString,
  channelId: optionalString,
  heading: optionalString,
  authorUserId: optionalString,
  stage: z.enum(FEATURE_STAGES).optional().default('planning'),
  canAdvance: z.boolean().optional().default(false),
  focus: z.enum(FEATURE_FOCI).optional(),
  priority: z.number().optional(),
  createdAt: optionalString,
  updatedAt: optionalString,
};
export const Feature = z.object({
  ...featureFields,
  details: optionalString,
  assumptions: list(Assumption),
  tasks: list(Task),
});
export type Feature = z.infer<typeof Feature>;
export const FeatureLite = z.object({
  ...featureFields,
  assumptions: list(AssumptionLite),
  tasks: list(Task),
});
export type FeatureLite = z.infer<typeof FeatureLite>;
export const FeatureExpanded = z.object({
  ...featureFields,
  details: optionalString,
  assumptions: list(Assumption),
  tasks: list(TaskExpanded),
  teamName: optionalString,
  channelName: optionalString,
});
export type FeatureExpanded = z.infer<typeof FeatureExpanded>;

const evaluation = z
  .object({
    count: z.number().int().optional().default(0),
    average: z.number().optional().default(0),
    recent: list(z.number()),
  })
  .optional();
export const Experience = z.object({
  id,
  userId: optionalString,
  notion: Notion.optional(),
  selfEval: evaluation,
  peerEval: evaluation,
  expiresAt: optionalString,
  createdAt: optionalString,
  updatedAt: optionalString,
});
export type Experience = z.infer<typeof Experience>;

export const Invitation = z.object({
  id,
  orgId: optionalString,
  teamId: optionalString,
  userId: optionalString,
  inviteName: optionalString,
  inviteOrgRole: z.enum(ASSIGNABLE_ROLES).optional(),
  inviteOrgName: optionalString,
  inviteUses: z.number().int().optional(),
  inviteUsesMax: z.number().int().optional(),
  inviteViews: z.number().int().optional(),
  expiresAt: optionalString,
  createdAt: optionalString,
  updatedAt: optionalString,
});
export type Invitation = z.infer<typeof Invitation>;

export const PricePlan = z.object({
  id,
  slug: optionalString,
  /** In cents. */
  price: z.number().optional(),
  interval: z.enum(BILLING_INTERVALS).optional(),
  intervalCount: z.number().int().optional(),
  trialEnabled: z.boolean().optional(),
  trialInterval: z.enum(BILLING_INTERVALS).optional(),
  trialIntervalCount: z.number().int().optional(),
  productId: z.number().optional(),
  variantId: z.number().optional(),
  productName: optionalString,
  productDesc: optionalString,
  isExtra: z.boolean().optional(),
  isEnabled: z.boolean().optional(),
  usersMax: z.number().int().optional(),
});
export type PricePlan = z.infer<typeof PricePlan>;

export const Checkout = z.object({
  id,
  productId: z.number().optional(),
  variantId: z.number().optional(),
  darkMode: z.boolean().optional(),
  url: z.string(),
  /** The link expires 23 hours after it is prepared. */
  expiresAt: optionalString,
});
export type Checkout = z.infer<typeof Checkout>;

export const Subscription = z.object({
  subscriptionId: z.number().optional(),
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  url: optionalString,
  orderId: z.number().optional(),
  orderFeatureId: z.number().optional(),
  productId: z.number().optional(),
  variantId: z.number().optional(),
  customerId: z.number().optional(),
  cardBrand: optionalString,
  cardLast4: optionalString,
  pricePlan: PricePlan.optional(),
  usersCount: z.number().optional(),
  renewsAt: z.string().nullish(),
  endsAt: z.string().nullish(),
  trialEndsAt: z.string().nullish(),
  createdAt: optionalString,
  updatedAt: optionalString,
});
export type Subscription = z.infer<typeof Subscription>;
/** `null` when the organization has no subscription. */
export const SubscriptionNullable = Subscription.nullable();
export type SubscriptionNullable = z.infer<typeof SubscriptionNullable>;

export const Invoice = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  subscriptionId: z.number().optional(),
  productId: z.number().optional(),
  variantId: z.number().optional(),
  customerId: z.number().optional(),
  pricePlan: z
    .object({
      id: optionalString,
      name: optionalString,
      interval: z.enum(BILLING_INTERVALS).optional(),
      intervalCount: z.number().int().optional(),
    })
    .optional(),
  status: z.enum(INVOICE_STATUSES).optional(),
  url: optionalString,
  refunded: z.boolean().optional(),
  subtotal: z.number().optional(),
  tax: z.number().optional(),
  total: z.number().optional(),
  cardBrand: optionalString,
  cardLast4: optionalString,
  createdAt: optionalString,
  updatedAt: optionalString,
});
export type Invoice = z.infer<typeof Invoice>;

export const Event = z.object({
  id,
  type: z.enum(EVENT_TYPES).optional(),
  teamId: nullableId,
  channelId: nullableId,
  notionId: nullableId,
  peerUserId: nullableId,
  featureId: nullableId,
  assmId: nullableId,
  taskId: nullableId,
  diff: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  stage: z
    .enum(FEATURE_STAGES)
    .nullish()
    .transform((v) => v ?? undefined),
});
export type Event = z.infer<typeof Event>;

/** Operations that "return a bool" answer JSON `true`. */
export const Ok = z.boolean();

// Lists ---------------------------------------------------------------------------------------

export const InvoiceList = pageOf('invoices', Invoice);
export const EventsList = pageOf('events', Event).extend({ readOnly: z.boolean().optional() });
export const ServiceAccountsList = pageOf('serviceAccounts', ServiceAccount);
export const TeamsList = pageOf('teams', Team);
export const TeamsExpandedList = pageOf('teams', TeamExpanded);
export const ChannelMembersList = pageOf('members', User);
export const FeaturesList = pageOf('features', FeatureLite);
export const DeepContextList = pageOf('features', Feature);
export const TasksList = pageOf('tasks', Task);
export const AssumptionsList = pageOf('assumptions', Assumption);
export const NotionsList = pageOf('notions', Notion);
export const ExperiencesList = pageOf('experiences', Experience);
export const InvitationsList = pageOf('invitations', Invitation);
export const PricePlanList = z.object({ total: z.number().int().optional(), pricePlans: list(PricePlan) });
export const TaskCandidatesList = z.object({ candidates: list(Candidate) });
export const ChannelProspectsList = z.object({ prospects: list(User) });

// ---------------------------------------------------------------------------------------------
// Payloads (request bodies): strict about limits, unknown keys refused so typos surface.
// ---------------------------------------------------------------------------------------------

const text = (min: number, max: number) => z.string().min(min).max(max);
const heading = text(1, LIMITS.heading);
const details = text(1, LIMITS.details);
const minuteText = text(1, LIMITS.minuteText);
const priority = z.number().int().min(LIMITS.priority.min).max(LIMITS.priority.max);

export const PayloadAccountUpdate = z.strictObject({
  userName: text(LIMITS.userName.min, LIMITS.userName.max),
});
export const PayloadServiceAccountCreate = z.strictObject({
  roleOrg: z.enum(ASSIGNABLE_ROLES),
  userName: text(LIMITS.userName.min, LIMITS.userName.max),
});
export const PayloadServiceAccountUpdate = PayloadServiceAccountCreate.partial();
export const PayloadTeamCreate = z.strictObject({ teamName: text(LIMITS.teamName.min, LIMITS.teamName.max) });
export const PayloadTeamUpdate = PayloadTeamCreate.partial();
export const PayloadChannelCreate = z.strictObject({
  channelName: text(LIMITS.channelName.min, LIMITS.channelName.max),
  channelDesc: z.string().max(LIMITS.channelDesc).optional(),
});
export const PayloadChannelUpdate = PayloadChannelCreate.partial();
export const PayloadFeatureCreate = z.strictObject({
  heading,
  details: details.optional(),
  focus: z.enum(FEATURE_FOCI).optional(),
  priority: priority.optional(),
});
export const PayloadFeatureUpdate = PayloadFeatureCreate.partial();
export const PayloadTaskCreate = z.strictObject({ heading, details: details.optional() });
export const PayloadTaskUpdate = z.strictObject({
  heading: heading.optional(),
  details: details.optional(),
  state: z.enum(TASK_STATES).optional(),
  notionIds: z.array(z.string()).optional(),
});
export const PayloadTaskDiscoveryCreate = z.strictObject({ details: minuteText });
export const PayloadTaskDiscoveryUpdate = PayloadTaskDiscoveryCreate;
export const PayloadTaskFeedbackCreate = z.strictObject({
  message: minuteText,
  issue: z.enum(FEEDBACK_ISSUES).optional(),
});
export const PayloadTaskFeedbackUpdate = PayloadTaskFeedbackCreate.partial();
export const PayloadTaskFeedbackReply = z.strictObject({ reply: minuteText });
export const PayloadAssmCreate = z.strictObject({ heading });
export const PayloadAssmUpdate = PayloadAssmCreate.partial();
export const PayloadAssmExperiment = z.strictObject({
  confirmed: z.boolean().optional(),
  details: details.optional(),
  state: z.enum(EXPERIMENT_STATES).optional(),
});
export const PayloadNotionCreate = z.strictObject({ value: text(1, LIMITS.notion) });
export const PayloadNotionUpdate = PayloadNotionCreate.partial();
const invitationFields = {
  teamId: z.string().min(1),
  inviteName: text(LIMITS.inviteName.min, LIMITS.inviteName.max),
  inviteOrgRole: z.enum(ASSIGNABLE_ROLES).optional(),
  inviteExpireDays: z
    .number()
    .int()
    .min(LIMITS.inviteExpireDays.min)
    .max(LIMITS.inviteExpireDays.max)
    .optional(),
  inviteUsesMax: z.number().int().min(LIMITS.inviteUsesMax.min).max(LIMITS.inviteUsesMax.max).optional(),
};
export const PayloadInvitationCreate = z.strictObject(invitationFields);
export const PayloadInvitationUpdate = PayloadInvitationCreate.partial();

export type PayloadAccountUpdate = z.input<typeof PayloadAccountUpdate>;
export type PayloadServiceAccountCreate = z.input<typeof PayloadServiceAccountCreate>;
export type PayloadServiceAccountUpdate = z.input<typeof PayloadServiceAccountUpdate>;
export type PayloadTeamCreate = z.input<typeof PayloadTeamCreate>;
export type PayloadTeamUpdate = z.input<typeof PayloadTeamUpdate>;
export type PayloadChannelCreate = z.input<typeof PayloadChannelCreate>;
export type PayloadChannelUpdate = z.input<typeof PayloadChannelUpdate>;
export type PayloadFeatureCreate = z.input<typeof PayloadFeatureCreate>;
export type PayloadFeatureUpdate = z.input<typeof PayloadFeatureUpdate>;
export type PayloadTaskCreate = z.input<typeof PayloadTaskCreate>;
export type PayloadTaskUpdate = z.input<typeof PayloadTaskUpdate>;
export type PayloadTaskDiscoveryCreate = z.input<typeof PayloadTaskDiscoveryCreate>;
export type PayloadTaskFeedbackCreate = z.input<typeof PayloadTaskFeedbackCreate>;
export type PayloadTaskFeedbackUpdate = z.input<typeof PayloadTaskFeedbackUpdate>;
export type PayloadTaskFeedbackReply = z.input<typeof PayloadTaskFeedbackReply>;
export type PayloadAssmCreate = z.input<typeof PayloadAssmCreate>;
export type PayloadAssmExperiment = z.input<typeof PayloadAssmExperiment>;
export type PayloadNotionCreate = z.input<typeof PayloadNotionCreate>;
export type PayloadInvitationCreate = z.input<typeof PayloadInvitationCreate>;
export type PayloadInvitationUpdate = z.input<typeof PayloadInvitationUpdate>;

// ---------------------------------------------------------------------------------------------
// Query strings
// ---------------------------------------------------------------------------------------------

export const PageQuery = z.strictObject({
  pageNumber: z.number().int().min(1).optional(),
  pageSize: z.number().int().min(LIMITS.pageSize.min).max(LIMITS.pageSize.max).optional(),
});
export type PageQuery = z.input<typeof PageQuery>;
export const FeatureListQuery = PageQuery.extend({
  // Accept the model's spelling too; the wire wants the hyphen.
  stage: z
    .enum([...FEATURE_STAGE_FILTERS, 'deep context'])
    .transform((s): FeatureStageFilter => (s === 'deep context' ? 'deep-context' : s))
    .optional(),
});
export const SearchQuery = PageQuery.extend({ searchTerm: z.string().max(LIMITS.searchTerm).optional() });
export const EventsQuery = PageQuery.extend({
  aggregate: z
    .union([z.literal(0), z.literal(1), z.boolean()])
    .transform((v) => Number(v))
    .optional(),
});
export const CheckoutQuery = z.strictObject({
  darkMode: z
    .union([z.literal(0), z.literal(1), z.boolean()])
    .transform((v) => Number(v))
    .optional(),
});
export const ProspectsQuery = z.strictObject({ userName: z.string().max(LIMITS.userName.max).optional() });

/** A grade travels as a path segment string "1".."10"; callers may pass a number. */
export const Grade = z
  .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
  .pipe(z.number().int().min(LIMITS.grade.min).max(LIMITS.grade.max))
  .transform(String);

/** `{ avatar }` for the avatar upload: PNG bytes, checked before sending. */
export const AvatarInput = z.strictObject({
  // z.custom, not z.instanceof: a Node Buffer is a Uint8Array<ArrayBufferLike>, which
  // `InstanceType<typeof Uint8Array>` (Uint8Array<ArrayBuffer>) refuses at compile time.
  avatar: z.union([
    z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'must be the PNG bytes'),
    z.instanceof(ArrayBuffer).transform((b) => new Uint8Array(b)),
  ]),
});
export type AvatarInput = z.input<typeof AvatarInput>;

/** The service's error body. */
export const ServiceErrorBody = z.object({ id: z.string(), message: z.string().optional().default('') });
