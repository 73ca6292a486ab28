/**
 * Tasks and features as Work Objects (Slack's `slack#/entities/task`), as pure builders: the compact
 * preview a pasted link unfurls into, and the flexpane's fuller view (details and minutes). Each
 * carries an `external_ref.id` from which the thing's coordinates are read back when Slack asks for
 * its details (`entity_details_requested`).
 */
import type { EntityCustomField, EntityMetadata, TaskEntityFields } from '@slack/types';
import type { Feature } from '../../planning/models.js';
import { STAGE_NAMES } from '../../planning/stages.js';
import type { LinkedThing } from '../kit/web-links.js';
import type { TaskDetails, TaskView } from '../tasks/index.js';

const TASK_ENTITY = 'slack#/entities/task';

/** Which coordinates each kind carries, in the order the compact id lists them. */
const PARTS = {
  task: ['teamId', 'channelId', 'featureId', 'taskId'],
  feature: ['teamId', 'channelId', 'featureId'],
} as const;

/** `task/<team>/<channel>/<feature>/<task>` (or `feature/…`): the thing's coordinates, compactly. */
export function entityRefId(thing: LinkedThing): string {
  const coords = thing.coords as Record<string, string>;
  return [thing.kind, ...PARTS[thing.kind].map((name) => encodeURIComponent(coords[name]!))].join('/');
}

/** The thing an `external_ref.id` of {@link entityRefId} names; undefined for anything else. */
export function parseEntityRefId(id: string | undefined): LinkedThing | undefined {
  const [kind, ...parts] = (id ?? '').split('/');
  if (kind !== 'task' && kind !== 'feature') return undefined;
  const names = PARTS[kind];
  if (parts.length !== names.length || parts.some((p) => p === '')) return undefined;
  try {
    const coords = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(parts[i]!)]));
    return { kind, coords } as LinkedThing;
  } catch {
    return undefined;
  }
}

/** Where the entity is, and the link it was pasted as. */
export interface EntityLink {
  thing: LinkedThing;
  /** The pasted URL: `app_unfurl_url` must be exactly it. */
  url: string;
  /** The entity's page as the template builds it. */
  canonical: string;
}

const stringField = (label: string, key: string, value: string): EntityCustomField => ({
  label,
  key,
  type: 'string',
  value,
});

function entity(
  { thing, url, canonical }: EntityLink,
  title: string,
  displayType: string,
  fields: TaskEntityFields,
  custom: EntityCustomField[],
): EntityMetadata {
  return {
    entity_type: TASK_ENTITY,
    url: canonical,
    app_unfurl_url: url,
    external_ref: { id: entityRefId(thing), type: thing.kind },
    entity_payload: {
      attributes: { title: { text: title }, display_type: displayType },
      fields,
      ...(custom.length > 0 ? { custom_fields: custom } : {}),
    },
  };
}

/** A task's state, assignee (a Slack user when someone here acts as them) and feature. */
function taskFields(view: TaskView): TaskEntityFields {
  return {
    status: { value: view.state },
    ...(view.assigneeSlackId
      ? { assignee: { type: 'slack#/types/user', user: { user_id: view.assigneeSlackId } } }
      : {}),
  };
}

/** The preview of a task: heading, state, assignee, its feature. */
export function taskEntity(link: EntityLink, view: TaskView): EntityMetadata {
  const custom = view.featureHeading ? [stringField('Feature', 'feature', view.featureHeading)] : [];
  return entity(link, view.heading, 'Task', taskFields(view), custom);
}

/** The flexpane of a task: the preview, its details, and its minutes (counts and the latest of each). */
export function taskDetailsEntity(link: EntityLink, view: TaskDetails): EntityMetadata {
  const latest = (kind: 'discovery' | 'feedback') =>
    view.entries.filter((e) => e.kind === kind).sort((a, b) => (b.iat ?? 0) - (a.iat ?? 0))[0]?.text;
  const discoveries = view.entries.filter((e) => e.kind === 'discovery').length;
  const feedback = view.entries.length - discoveries;
  const lastDiscovery = latest('discovery');
  const lastFeedback = latest('feedback');
  const custom: EntityCustomField[] = [
    ...(view.featureHeading ? [stringField('Feature', 'feature', view.featureHeading)] : []),
    stringField('Discoveries', 'discoveries', String(discoveries)),
    stringField('Feedback', 'feedback', String(feedback)),
    ...(lastDiscovery ? [stringField('Latest discovery', 'latest_discovery', lastDiscovery)] : []),
    ...(lastFeedback ? [stringField('Latest feedback', 'latest_feedback', lastFeedback)] : []),
  ];
  const fields: TaskEntityFields = {
    ...taskFields(view),
    ...(view.details ? { description: { value: view.details, long: true } } : {}),
  };
  return entity(link, view.heading, 'Task', fields, custom);
}

/** A feature: heading, stage, and in the flexpane its details and how many assumptions and tasks. */
export function featureEntity(link: EntityLink, feature: Feature, full = false): EntityMetadata {
  const fields: TaskEntityFields = {
    status: { value: STAGE_NAMES[feature.stage] },
    ...(full && feature.details ? { description: { value: feature.details, long: true } } : {}),
  };
  const custom = full
    ? [
        stringField('Assumptions', 'assumptions', String(feature.assumptions.length)),
        stringField('Tasks', 'tasks', String(feature.tasks.length)),
      ]
    : [];
  return entity(link, feature.heading ?? feature.id, 'Feature', fields, custom);
}
