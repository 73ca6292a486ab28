/**
 * `--seed demo`: a realistic, deterministic organization to try the Slack app against.
 *
 * "Northwind Robotics": owner Ada Lovelace, admin Grace Hopper, members Margaret Hamilton (the
 * member token), Alan Turing, Katherine Johnson, Dennis Ritchie and Barbara Liskov; teams Platform
 * (General, API, Infrastructure), Product (General, Discovery) and Mobile (General); six notions;
 * features in every stage, with assumptions whose experiments are idle, running or done, and tasks
 * in every state (some unassigned) with discoveries and feedback (some unanswered); self and peer
 * evaluations; one invitation. No subscription: the price plans are there to check out.
 *
 * The history is spread over the 30 days before start-up, one step every 37 minutes, and ids come
 * from the state's counter — so the same build seeds the same ids and relative times every time.
 */
import { addDays, addMinutes } from 'date-fns';
import type {
  ExperimentState,
  FeatureFocus,
  FeatureStage,
  FeedbackIssue,
  TaskState,
} from '../planning/models.js';
import { FEATURE_STAGES } from '../planning/models.js';
import { createAccount } from './accounts.js';
import type { Engine, OperationName, ResultOf } from './engine.js';
import { type SeededOrg, seedOrganization } from './seed.js';
import type { AccountRec } from './state.js';

const HISTORY_DAYS = 30;
const STEP_MINUTES = 37;

type Person = 'ada' | 'grace' | 'margaret' | 'alan' | 'katherine' | 'dennis' | 'barbara';
type ChannelKey = 'platform' | 'api' | 'infra' | 'product' | 'discovery' | 'mobile';

const TEAMS: {
  name: string;
  channels: { key: ChannelKey; name?: string; desc?: string; people: Person[] }[];
}[] = [
  {
    name: 'Platform',
    channels: [
      { key: 'platform', people: ['ada', 'grace', 'margaret', 'alan', 'dennis'] },
      {
        key: 'api',
        name: 'API',
        desc: 'Public API and partner SDKs',
        people: ['grace', 'margaret', 'alan', 'dennis'],
      },
      {
        key: 'infra',
        name: 'Infrastructure',
        desc: 'Clusters, databases, deploys',
        people: ['alan', 'dennis'],
      },
    ],
  },
  {
    name: 'Product',
    channels: [
      { key: 'product', people: ['ada', 'katherine', 'barbara', 'margaret'] },
      {
        key: 'discovery',
        name: 'Discovery',
        desc: 'Research and experiments',
        people: ['katherine', 'barbara'],
      },
    ],
  },
  { name: 'Mobile', channels: [{ key: 'mobile', people: ['barbara', 'alan', 'katherine'] }] },
];

const NOTIONS = [
  'typescript',
  'postgres',
  'ux research',
  'kubernetes',
  'react native',
  'accessibility',
] as const;
type NotionName = (typeof NOTIONS)[number];

interface AssumptionSpec {
  heading: string;
  by: Person;
  state: ExperimentState;
  confirmed?: boolean;
  details?: string;
}

interface TaskSpec {
  heading: string;
  details?: string;
  state: TaskState;
  assignee?: Person;
  notions?: NotionName[];
  discoveries?: [Person, string][];
  feedback?: { by: Person; issue: FeedbackIssue; message: string; reply?: string }[];
}

interface FeatureSpec {
  channel: ChannelKey;
  author: Person;
  heading: string;
  details: string;
  focus: FeatureFocus;
  priority: number;
  stage: FeatureStage;
  assumptions?: AssumptionSpec[];
  tasks?: TaskSpec[];
}

const FEATURES: FeatureSpec[] = [
  {
    channel: 'api',
    author: 'grace',
    heading: 'Rate-limit the public API',
    details: 'Protect the API from bursts: per-token quotas with clear 429 answers and Retry-After.',
    focus: 'firmitas',
    priority: 8,
    stage: 'planning',
  },
  {
    channel: 'api',
    author: 'margaret',
    heading: 'Move sessions to Postgres',
    details: 'Replace the in-memory session store so that deploys stop logging everyone out.',
    focus: 'firmitas',
    priority: 6,
    stage: 'planning',
    assumptions: [{ heading: 'Postgres handles 5k session writes per second', by: 'dennis', state: 'idle' }],
  },
  {
    channel: 'api',
    author: 'alan',
    heading: 'Typed SDK for partners',
    details: 'Generate a TypeScript SDK from the OpenAPI document and publish it for partners.',
    focus: 'utilitas',
    priority: 7,
    stage: 'validation',
    assumptions: [
      {
        heading: 'Most partners build with TypeScript',
        by: 'alan',
        state: 'done',
        confirmed: true,
        details: 'Survey of 14 partners: 11 use TypeScript on the server.',
      },
      {
        heading: 'Generated types stay under 1 MB',
        by: 'margaret',
        state: 'running',
        details: 'Generating from the current document in CI.',
      },
    ],
  },
  {
    channel: 'api',
    author: 'grace',
    heading: 'Audit log export',
    details: 'Let admins export the audit log as CSV for their compliance reviews.',
    focus: 'utilitas',
    priority: 5,
    stage: 'validation',
    assumptions: [
      {
        heading: 'Admins need the export monthly',
        by: 'grace',
        state: 'done',
        confirmed: true,
        details: '6 of 8 interviewed admins.',
      },
      {
        heading: 'CSV is enough; nobody asks for JSON',
        by: 'margaret',
        state: 'done',
        confirmed: false,
        details: 'Two asked for JSON lines.',
      },
    ],
  },
  {
    channel: 'api',
    author: 'dennis',
    heading: 'Zero-downtime migrations',
    details: 'Expand/contract migrations so schema changes never block writes.',
    focus: 'firmitas',
    priority: 9,
    stage: 'execution',
    assumptions: [
      {
        heading: 'Long migrations lock the sessions table',
        by: 'dennis',
        state: 'done',
        confirmed: true,
        details: 'Seen in the last two incidents.',
      },
    ],
    tasks: [
      {
        heading: 'Add an expand/contract migration helper',
        state: 'done',
        assignee: 'dennis',
        notions: ['typescript', 'postgres'],
        discoveries: [['dennis', 'Kysely migrations can run the expand step in a separate transaction.']],
      },
      {
        heading: 'Backfill job with throttling',
        details: 'Copy rows in batches of 1000 and pause when replication lag grows.',
        state: 'in review',
        assignee: 'alan',
        notions: ['postgres'],
        discoveries: [['alan', 'Replication lag stays under 2 s with batches of 1000.']],
        feedback: [
          {
            by: 'dennis',
            issue: 'testing',
            message: 'Please add a test for the resume-after-crash path.',
            reply: 'Added, see the second commit.',
          },
          { by: 'grace', issue: 'security', message: 'The job logs row contents at debug level; drop them.' },
        ],
      },
      {
        heading: 'Runbook for rolling back a migration',
        state: 'in progress',
        assignee: 'margaret',
        feedback: [
          { by: 'alan', issue: 'standards', message: 'Use the incident template for the runbook headings.' },
        ],
      },
      { heading: 'Load test the migration on staging', state: 'idle', notions: ['kubernetes'] },
      { heading: 'Dashboard for lock waits', state: 'idle', notions: ['postgres'] },
    ],
  },
  {
    channel: 'api',
    author: 'grace',
    heading: 'Single sign-on with SAML',
    details: 'Enterprise customers sign in with their identity provider.',
    focus: 'utilitas',
    priority: 7,
    stage: 'deep context',
    assumptions: [
      {
        heading: 'Enterprise deals need SAML',
        by: 'ada',
        state: 'done',
        confirmed: true,
        details: 'Required in 4 of 5 RFPs.',
      },
    ],
    tasks: [
      { heading: 'SAML assertion parsing', state: 'done', assignee: 'margaret', notions: ['typescript'] },
      {
        heading: 'Admin settings page for SSO',
        state: 'done',
        assignee: 'katherine',
        notions: ['accessibility'],
        feedback: [
          {
            by: 'barbara',
            issue: 'value',
            message: 'Show the metadata URL with a copy button.',
            reply: 'Done.',
          },
        ],
      },
    ],
  },
  {
    channel: 'infra',
    author: 'alan',
    heading: 'Autoscale the API on Kubernetes',
    details: 'Scale pods on request latency instead of CPU.',
    focus: 'firmitas',
    priority: 6,
    stage: 'execution',
    assumptions: [
      { heading: 'Latency predicts load better than CPU', by: 'alan', state: 'done', confirmed: true },
    ],
    tasks: [
      {
        heading: 'Export p95 latency to the metrics adapter',
        state: 'done',
        assignee: 'dennis',
        notions: ['kubernetes'],
      },
      { heading: 'Tune the HPA thresholds', state: 'done', assignee: 'alan', notions: ['kubernetes'] },
    ],
  },
  {
    channel: 'discovery',
    author: 'katherine',
    heading: 'Onboarding checklist',
    details: 'Guide new teams through their first feature in under ten minutes.',
    focus: 'venustas',
    priority: 8,
    stage: 'validation',
    assumptions: [
      {
        heading: 'New teams finish setup within 10 minutes',
        by: 'katherine',
        state: 'running',
        details: 'Five moderated sessions booked.',
      },
      { heading: 'A checklist beats a product tour', by: 'barbara', state: 'idle' },
    ],
  },
  {
    channel: 'product',
    author: 'barbara',
    heading: 'Usability study of the planner',
    details: 'Watch five teams plan a feature and list what slows them down.',
    focus: 'venustas',
    priority: 4,
    stage: 'planning',
    assumptions: [{ heading: 'Teams get lost between stages', by: 'katherine', state: 'idle' }],
  },
  {
    channel: 'product',
    author: 'katherine',
    heading: 'Dark mode',
    details: 'A dark theme that follows the system setting.',
    focus: 'venustas',
    priority: 3,
    stage: 'deep context',
    assumptions: [
      { heading: 'A third of users work in the evening', by: 'katherine', state: 'done', confirmed: true },
    ],
    tasks: [
      {
        heading: 'Contrast audit of the dark palette',
        state: 'done',
        assignee: 'katherine',
        notions: ['accessibility'],
      },
    ],
  },
  {
    channel: 'mobile',
    author: 'barbara',
    heading: 'Offline mode for the mobile app',
    details: 'Read tasks and log discoveries without a connection; sync when back online.',
    focus: 'utilitas',
    priority: 7,
    stage: 'execution',
    assumptions: [
      { heading: 'Field teams lose signal daily', by: 'barbara', state: 'done', confirmed: true },
    ],
    tasks: [
      {
        heading: 'Local store for tasks',
        state: 'in progress',
        assignee: 'barbara',
        notions: ['react native'],
        discoveries: [['barbara', 'SQLite via Expo handles 10k tasks without jank.']],
      },
      {
        heading: 'Sync conflict resolution',
        state: 'in review',
        assignee: 'alan',
        notions: ['react native', 'typescript'],
        feedback: [
          { by: 'barbara', issue: 'complexity', message: 'Could last-writer-wins per field be enough here?' },
        ],
      },
      { heading: 'Offline banner and retry', state: 'idle', notions: ['accessibility', 'react native'] },
    ],
  },
];

/** [grader, graded, notion, grade]; a grader grading themselves is a self-evaluation. */
const EVALUATIONS: [Person, Person, NotionName, number][] = [
  ['margaret', 'margaret', 'typescript', 8],
  ['margaret', 'margaret', 'postgres', 6],
  ['alan', 'margaret', 'typescript', 7],
  ['grace', 'margaret', 'typescript', 9],
  ['dennis', 'dennis', 'postgres', 9],
  ['margaret', 'dennis', 'postgres', 8],
  ['alan', 'alan', 'kubernetes', 7],
  ['dennis', 'alan', 'kubernetes', 8],
  ['katherine', 'katherine', 'ux research', 9],
  ['barbara', 'katherine', 'ux research', 8],
  ['katherine', 'katherine', 'accessibility', 8],
  ['barbara', 'barbara', 'react native', 7],
  ['alan', 'barbara', 'react native', 6],
  ['grace', 'grace', 'typescript', 9],
];

class Seeder {
  private t: number;
  readonly people = {} as Record<Person, AccountRec>;
  readonly channels = {} as Record<ChannelKey, { teamId: string; channelId: string }>;
  readonly notions = {} as Record<NotionName, string>;

  constructor(private readonly engine: Engine) {
    this.t = addDays(engine.store.now(), -HISTORY_DAYS).getTime();
  }

  /** One step of history: the call happens STEP_MINUTES after the previous one. */
  call<N extends OperationName>(person: Person, operation: N, params: string[] = [], input?: unknown) {
    this.t = addMinutes(this.t, STEP_MINUTES).getTime();
    return this.engine.store.at(this.t, () =>
      this.engine.call(this.people[person], operation, params, input),
    );
  }

  at<T>(fn: () => Promise<T>): Promise<T> {
    return this.engine.store.at(this.t, fn);
  }
}

export async function seedDemo(engine: Engine): Promise<SeededOrg> {
  const seed = new Seeder(engine);
  const seeded = await seed.at(() =>
    seedOrganization(engine, 'Northwind Robotics', {
      owner: 'Ada Lovelace',
      admin: 'Grace Hopper',
      member: 'Margaret Hamilton',
    }),
  );
  Object.assign(seed.people, { ada: seeded.owner, grace: seeded.admin, margaret: seeded.member });
  const org = engine.store.org(seeded.handle.orgId);
  for (const [key, name] of [
    ['alan', 'Alan Turing'],
    ['katherine', 'Katherine Johnson'],
    ['dennis', 'Dennis Ritchie'],
    ['barbara', 'Barbara Liskov'],
  ] as const) {
    seed.people[key] = await seed.at(() => createAccount(engine.store, engine.tokens, org, 'member', name));
  }

  await seedTeams(seed);
  for (const value of NOTIONS)
    seed.notions[value] = (await seed.call('grace', 'notions.create', [], { value })).id;
  for (const spec of FEATURES) await seedFeature(seed, spec);
  for (const [grader, graded, notion, grade] of EVALUATIONS) {
    const notionId = seed.notions[notion];
    if (grader === graded) await seed.call(grader, 'experiences.evaluate', [notionId, String(grade)]);
    else
      await seed.call(grader, 'experiences.evaluatePeer', [notionId, String(grade), seed.people[graded].id]);
  }
  await seed.call('grace', 'invitations.create', [], {
    teamId: seed.channels.product.teamId,
    inviteName: 'Design contractors',
    inviteOrgRole: 'member',
    inviteExpireDays: 30,
    inviteUsesMax: 5,
  });
  return seeded;
}

async function seedTeams(seed: Seeder): Promise<void> {
  for (const spec of TEAMS) {
    let team: ResultOf<'teams.create'> = await seed.call('ada', 'teams.create', [], { teamName: spec.name });
    for (const channel of spec.channels) {
      if (channel.name) {
        team = await seed.call('ada', 'channels.create', [team.id], {
          channelName: channel.name,
          channelDesc: channel.desc,
        });
      }
      const created = channel.name ? team.channels.at(-1) : team.channels[0];
      const ids = { teamId: team.id, channelId: created?.id ?? '' };
      seed.channels[channel.key] = ids;
      for (const person of channel.people) {
        await seed.call('ada', 'channels.assign', [ids.teamId, ids.channelId, seed.people[person].id]);
      }
    }
  }
}

/** Builds a feature and walks it to its stage the way a team would. */
async function seedFeature(seed: Seeder, spec: FeatureSpec): Promise<void> {
  const { teamId, channelId } = seed.channels[spec.channel];
  const { heading, details, focus, priority } = spec;
  const feature = await seed.call(spec.author, 'features.create', [teamId, channelId], {
    heading,
    details,
    focus,
    priority,
  });
  const path = [teamId, channelId, feature.id];
  for (const assm of spec.assumptions ?? []) {
    const created = await seed.call(assm.by, 'assumptions.create', path, { heading: assm.heading });
    await seed.call(assm.by, 'assumptions.experiment', [...path, created.id], {
      state: assm.state,
      confirmed: assm.confirmed ?? false,
      ...(assm.details && { details: assm.details }),
    });
  }
  const target = FEATURE_STAGES.indexOf(spec.stage);
  // Tasks and their minutes come before the last advance: deep context is read-only.
  if (target >= 1) await seed.call(spec.author, 'features.advance', path);
  if (target >= 2) await seed.call(spec.author, 'features.advance', path);
  for (const task of spec.tasks ?? []) await seedTask(seed, path, task);
  if (target >= 3) await seed.call(spec.author, 'features.advance', path);
}

async function seedTask(seed: Seeder, path: string[], spec: TaskSpec): Promise<void> {
  const author = spec.assignee ?? 'grace';
  const task = await seed.call(author, 'tasks.create', path, {
    heading: spec.heading,
    ...(spec.details && { details: spec.details }),
  });
  const taskPath = [...path, task.id];
  if (spec.assignee) await seed.call('grace', 'tasks.assign', [...taskPath, seed.people[spec.assignee].id]);
  if (spec.notions) {
    await seed.call(author, 'tasks.update', taskPath, {
      notionIds: spec.notions.map((n) => seed.notions[n]),
    });
  }
  if (spec.state !== 'idle') await seed.call(author, 'tasks.update', taskPath, { state: 'in progress' });
  for (const [person, details] of spec.discoveries ?? []) {
    await seed.call(person, 'tasks.discoveryCreate', taskPath, { details });
  }
  for (const fb of spec.feedback ?? []) {
    const created = await seed.call(fb.by, 'tasks.feedbackCreate', taskPath, {
      message: fb.message,
      issue: fb.issue,
    });
    if (fb.reply)
      await seed.call(author, 'tasks.feedbackReply', [...taskPath, created.id], { reply: fb.reply });
  }
  if (spec.state !== 'idle' && spec.state !== 'in progress') {
    await seed.call(author, 'tasks.update', taskPath, { state: spec.state });
  }
}
