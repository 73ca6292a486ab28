/**
 * The in-memory state with its lookups. Every lookup is scoped to an organization and answers
 * 404 for an id that is unknown *or* belongs to another organization, so isolation holds by
 * construction rather than by each handler remembering to check.
 */
import type { OrgRole } from '../planning/models.js';
import { notFound, raise } from './errors.js';
import type {
  AccountRec,
  AssumptionRec,
  ChannelRec,
  EventRec,
  FeatureRec,
  InvitationRec,
  NotionRec,
  OrgRec,
  SandboxState,
  TaskRec,
  TeamRec,
} from './state.js';

/** Oldest events are dropped beyond this many, so a long demo does not grow without bound. */
const MAX_EVENTS = 10_000;

export class Store {
  private frozenAt: number | undefined;

  constructor(
    public state: SandboxState,
    private readonly clock: () => number,
  ) {}

  /** Current time in ms: the injected clock, or the time set by {@link Store.at} while seeding. */
  now(): number {
    return this.frozenAt ?? this.clock();
  }

  /** Runs `fn` as if it were `ms` — seeds use it to spread their history over past days. */
  async at<T>(ms: number, fn: () => Promise<T>): Promise<T> {
    const previous = this.frozenAt;
    this.frozenAt = ms;
    try {
      return await fn();
    } finally {
      this.frozenAt = previous;
    }
  }

  /** A new id shaped like the service's (24 hex digits), deterministic for a given history. */
  nextId(): string {
    this.state.seq += 1;
    return this.state.seq.toString(16).padStart(24, '0');
  }

  org(orgId: string): OrgRec {
    return this.state.orgs[orgId] ?? raise(notFound('Organization'));
  }

  account(accountId: string): AccountRec | undefined {
    return this.state.accounts[accountId];
  }

  roleIn(account: AccountRec, orgId: string): OrgRole | undefined {
    return account.roles[orgId];
  }

  /** An account that belongs to the organization. */
  member(orgId: string, userId: string): AccountRec {
    const account = this.state.accounts[userId];
    return account?.roles[orgId] ? account : raise(notFound('User'));
  }

  membersOf(orgId: string): AccountRec[] {
    return Object.values(this.state.accounts).filter((account) => account.roles[orgId]);
  }

  teamsOf(orgId: string): TeamRec[] {
    return Object.values(this.state.teams).filter((team) => team.orgId === orgId);
  }

  team(orgId: string, teamId: string): TeamRec {
    const team = this.state.teams[teamId];
    if (!team || team.orgId !== orgId) throw notFound('Team');
    return team;
  }

  channel(team: TeamRec, channelId: string): ChannelRec {
    return team.channels.find((channel) => channel.id === channelId) ?? raise(notFound('Channel'));
  }

  /** A feature addressed by its full path: every segment must match. */
  feature(orgId: string, teamId: string, channelId: string, featureId: string): FeatureRec {
    this.channel(this.team(orgId, teamId), channelId);
    const feature = this.state.features[featureId];
    if (!feature || feature.orgId !== orgId || feature.teamId !== teamId || feature.channelId !== channelId) {
      throw notFound('Feature');
    }
    return feature;
  }

  /**
   * Each organization's features, in the order they were made: built on first use and kept as
   * features come and go, so a listing reads its organization's features, not every organization's
   * (the benchmarks' sandbox holds 20,000).
   */
  private featuresByOrg?: Map<string, FeatureRec[]>;

  featuresOf(orgId: string): readonly FeatureRec[] {
    if (!this.featuresByOrg) {
      this.featuresByOrg = new Map();
      for (const feature of Object.values(this.state.features)) this.indexFeature(feature);
    }
    return this.featuresByOrg.get(orgId) ?? [];
  }

  addFeature(feature: FeatureRec): void {
    this.state.features[feature.id] = feature;
    if (this.featuresByOrg) this.indexFeature(feature);
  }

  private indexFeature(feature: FeatureRec) {
    const list = this.featuresByOrg?.get(feature.orgId);
    if (list) list.push(feature);
    else this.featuresByOrg?.set(feature.orgId, [feature]);
  }

  /** Deletes every feature that matches (a team or channel going away takes its features along). */
  dropFeatures(matches: (feature: FeatureRec) => boolean): void {
    for (const feature of Object.values(this.state.features)) {
      if (matches(feature)) delete this.state.features[feature.id];
    }
    // Rare (a deletion): rebuilt on the next listing.
    this.featuresByOrg = undefined;
  }

  task(feature: FeatureRec, taskId: string): TaskRec {
    return feature.tasks.find((task) => task.id === taskId) ?? raise(notFound('Task'));
  }

  assumption(feature: FeatureRec, assmId: string): AssumptionRec {
    return feature.assumptions.find((assm) => assm.id === assmId) ?? raise(notFound('Assumption'));
  }

  notion(orgId: string, notionId: string): NotionRec {
    const notion = this.state.notions[notionId];
    if (!notion || notion.orgId !== orgId) throw notFound('Notion');
    return notion;
  }

  notionsOf(orgId: string): NotionRec[] {
    return Object.values(this.state.notions).filter((notion) => notion.orgId === orgId);
  }

  invitation(inviteId: string): InvitationRec {
    return this.state.invitations[inviteId] ?? raise(notFound('Invitation'));
  }

  /** The user's teams in one organization: `{teamId, channelIds}` as User.teams carries them. */
  userTeams(orgId: string, userId: string): { teamId: string; channelIds: string[] }[] {
    return this.teamsOf(orgId)
      .filter((team) =>
        team.channels.some((channel) => channel.isDefault && channel.userIds.includes(userId)),
      )
      .map((team) => ({
        teamId: team.id,
        channelIds: team.channels.filter((c) => c.userIds.includes(userId)).map((c) => c.id),
      }));
  }

  emit(event: Omit<EventRec, 'id' | 'at'>): void {
    this.state.events.push({ ...event, id: this.nextId(), at: this.now() });
    if (this.state.events.length > MAX_EVENTS)
      this.state.events.splice(0, this.state.events.length - MAX_EVENTS);
  }
}
