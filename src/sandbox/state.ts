/**
 * The sandbox's whole state as zod schemas: one definition gives the TypeScript types and the
 * check applied to a `--data` file when it is loaded back (a file is a boundary like any other).
 * Everything is plain JSON; times are epoch milliseconds, formatted only on the way out.
 */
import { z } from 'zod';
import {
  ASSIGNABLE_ROLES,
  EVENT_TYPES,
  EXPERIMENT_STATES,
  FEATURE_FOCI,
  FEATURE_STAGES,
  FEEDBACK_ISSUES,
  ORG_ROLES,
  SUBSCRIPTION_STATUSES,
  TASK_STATES,
  USER_COLORS,
} from '../planning/models.js';

const id = z.string();
const time = z.number();
const stamps = { createdAt: time, updatedAt: time };

const Grading = z.object({ graderId: id, grade: z.number().int(), at: time });

export const AccountRec = z.object({
  id,
  /** The organization whose token this is; the account may also have joined others by invitation. */
  homeOrgId: id,
  roles: z.record(z.string(), z.enum(ORG_ROLES)),
  userName: z.string(),
  userEmail: z.string().optional(),
  userColor: z.enum(USER_COLORS),
  avatarId: z.string().optional(),
  /** Bumped on regenerate and close: a token carrying an older version is refused. */
  tokenVersion: z.number().int(),
  serviceToken: z.string(),
  closedTime: time,
  apiCalls: z.record(z.string(), z.number()),
  ...stamps,
});
export type AccountRec = z.infer<typeof AccountRec>;

const CheckoutRec = z.object({
  id,
  pricePlanId: id,
  darkMode: z.boolean(),
  expiresAt: time,
  completed: z.boolean(),
  createdAt: time,
});
export type CheckoutRec = z.infer<typeof CheckoutRec>;

const SubscriptionRec = z.object({
  subscriptionId: z.number().int(),
  orderId: z.number().int(),
  customerId: z.number().int(),
  pricePlanId: id,
  status: z.enum(SUBSCRIPTION_STATUSES),
  renewsAt: time,
  endsAt: time.optional(),
  ...stamps,
});
export type SubscriptionRec = z.infer<typeof SubscriptionRec>;

const InvoiceRec = z.object({
  id,
  subscriptionId: z.number().int(),
  customerId: z.number().int(),
  pricePlanId: id,
  subtotal: z.number(),
  tax: z.number(),
  createdAt: time,
});
export type InvoiceRec = z.infer<typeof InvoiceRec>;

export const OrgRec = z.object({
  id,
  orgName: z.string(),
  subscription: SubscriptionRec.nullable(),
  invoices: z.array(InvoiceRec),
  checkouts: z.array(CheckoutRec),
  ...stamps,
});
export type OrgRec = z.infer<typeof OrgRec>;

const ChannelRec = z.object({
  id,
  isDefault: z.boolean(),
  channelName: z.string(),
  channelDesc: z.string(),
  /** Membership lives on channels; a team's members are its default channel's. */
  userIds: z.array(id),
  ...stamps,
});
export type ChannelRec = z.infer<typeof ChannelRec>;

const TeamRec = z.object({ id, orgId: id, teamName: z.string(), channels: z.array(ChannelRec), ...stamps });
export type TeamRec = z.infer<typeof TeamRec>;

const AssumptionRec = z.object({
  id,
  authorUserId: id,
  heading: z.string(),
  experiment: z.object({
    authorUserIds: z.array(id),
    confirmed: z.boolean(),
    details: z.string(),
    state: z.enum(EXPERIMENT_STATES),
  }),
  ...stamps,
});
export type AssumptionRec = z.infer<typeof AssumptionRec>;

const DiscoveryRec = z.object({
  id,
  iat: time,
  iteration: z.number().int(),
  authorUserId: id,
  details: z.string(),
});
export type DiscoveryRec = z.infer<typeof DiscoveryRec>;

const FeedbackRec = z.object({
  id,
  iat: time,
  iteration: z.number().int(),
  authorUserId: id,
  issue: z.enum(FEEDBACK_ISSUES),
  message: z.string(),
  reply: z.string().optional(),
});
export type FeedbackRec = z.infer<typeof FeedbackRec>;

const TaskRec = z.object({
  id,
  assigneeUserId: id.optional(),
  heading: z.string(),
  details: z.string().optional(),
  state: z.enum(TASK_STATES),
  notionIds: z.array(id),
  /** The minute's current iteration: a task sent back from review starts the next one. */
  iteration: z.number().int(),
  discoveries: z.array(DiscoveryRec),
  feedback: z.array(FeedbackRec),
  ...stamps,
});
export type TaskRec = z.infer<typeof TaskRec>;

const FeatureRec = z.object({
  id,
  orgId: id,
  teamId: id,
  channelId: id,
  heading: z.string(),
  details: z.string().optional(),
  focus: z.enum(FEATURE_FOCI).optional(),
  priority: z.number(),
  authorUserId: id,
  stage: z.enum(FEATURE_STAGES),
  assumptions: z.array(AssumptionRec),
  tasks: z.array(TaskRec),
  ...stamps,
});
export type FeatureRec = z.infer<typeof FeatureRec>;

const NotionRec = z.object({ id, orgId: id, value: z.string(), ...stamps });
export type NotionRec = z.infer<typeof NotionRec>;

const ExperienceRec = z.object({
  id,
  orgId: id,
  userId: id,
  notionId: id,
  /** Who graded is kept only to apply "one grade per grader per 24 hours"; it never leaves the sandbox. */
  self: z.array(Grading),
  peer: z.array(Grading),
  ...stamps,
});
export type ExperienceRec = z.infer<typeof ExperienceRec>;

const InvitationRec = z.object({
  id,
  orgId: id,
  teamId: id,
  userId: id,
  inviteName: z.string(),
  inviteOrgRole: z.enum(ASSIGNABLE_ROLES),
  inviteUses: z.number().int(),
  inviteUsesMax: z.number().int(),
  inviteViews: z.number().int(),
  expiresAt: time,
  ...stamps,
});
export type InvitationRec = z.infer<typeof InvitationRec>;

const EventRec = z.object({
  id,
  orgId: id,
  at: time,
  type: z.enum(EVENT_TYPES),
  /** Accounts whose event list shows it. */
  recipients: z.array(id),
  teamId: id.optional(),
  channelId: id.optional(),
  notionId: id.optional(),
  peerUserId: id.optional(),
  featureId: id.optional(),
  assmId: id.optional(),
  taskId: id.optional(),
  diff: z.array(z.string()),
  stage: z.enum(FEATURE_STAGES).optional(),
});
export type EventRec = z.infer<typeof EventRec>;

export const SandboxState = z.object({
  version: z.literal(1),
  /** Counter behind every id, so ids are deterministic for a given sequence of calls. */
  seq: z.number().int(),
  /** HS256 secret (base64url); kept in the data file so tokens survive a restart. */
  secret: z.string().min(1),
  /** The organization the CLI prints tokens for. */
  primary: z.object({ orgId: id, ownerId: id, adminId: id, memberId: id }).optional(),
  orgs: z.record(z.string(), OrgRec),
  accounts: z.record(z.string(), AccountRec),
  teams: z.record(z.string(), TeamRec),
  features: z.record(z.string(), FeatureRec),
  notions: z.record(z.string(), NotionRec),
  experiences: z.record(z.string(), ExperienceRec),
  invitations: z.record(z.string(), InvitationRec),
  /** Invitations deleted (revoked), by id, with when: their link's page says "revoked". */
  revokedInvitations: z.record(z.string(), time).default({}),
  events: z.array(EventRec),
});
export type SandboxState = z.infer<typeof SandboxState>;

export function emptyState(secret: string): SandboxState {
  return {
    version: 1,
    seq: 0,
    secret,
    orgs: {},
    accounts: {},
    teams: {},
    features: {},
    notions: {},
    experiences: {},
    invitations: {},
    revokedInvitations: {},
    events: [],
  };
}
