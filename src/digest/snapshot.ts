/**
 * What a digest is made from, and what it remembers for the next one.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { FEATURE_STAGES, type FeatureLite, type FeatureStage } from '../planning/models.js';

/** A task with unanswered feedback, found by reading tasks that are not done. */
export interface FeedbackWaiting {
  featureId: string;
  featureHeading?: string;
  taskId: string;
  taskHeading?: string;
  /** Feedback items on the task without a reply. */
  count: number;
}

/** Everything the composer needs, fetched by `gatherDigestData`. */
export interface DigestData {
  teamId: string;
  channelId: string;
  /** Every feature of the planning channel (FeatureLite: tasks and experiment states included). */
  features: FeatureLite[];
  feedbackWaiting: FeedbackWaiting[];
  /** Open tasks left unread because of the read cap: their feedback is not counted. */
  tasksNotRead: number;
}

/**
 * Stored with each posted digest: each feature's stage (for "advanced since") and a fingerprint of
 * everything the digest shows (for "nothing changed").
 */
export const DigestSnapshot = z.object({
  v: z.literal(1),
  stages: z.record(z.string(), z.enum(FEATURE_STAGES)),
  fingerprint: z.string(),
});
export type DigestSnapshot = z.infer<typeof DigestSnapshot>;

/** The previous digest, as far as the composer cares. */
export interface PreviousDigest {
  postedAt: Date;
  snapshot?: DigestSnapshot;
}

/** Builds the snapshot to store with the digest composed from `data`. */
export function buildSnapshot(data: DigestData): DigestSnapshot {
  const stages: Record<string, FeatureStage> = {};
  for (const feature of data.features) stages[feature.id] = feature.stage;
  return { v: 1, stages, fingerprint: fingerprint(data) };
}

/** Reads a stored snapshot; one that is missing or unreadable counts as none (the digest then shows no "advanced"). */
export function parseSnapshot(stored: string | undefined | null): DigestSnapshot | undefined {
  return parseStoredJson(DigestSnapshot, stored);
}

/** Parses JSON the digest stored earlier; anything missing or not matching the schema is `undefined`. */
export function parseStoredJson<T>(schema: z.ZodType<T>, stored: string | undefined | null): T | undefined {
  if (!stored) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The previous digest from the store's record of the last posted one. */
export function previousDigest(
  last: { postedAt: Date; snapshot?: string } | undefined,
): PreviousDigest | undefined {
  return last && { postedAt: last.postedAt, snapshot: parseSnapshot(last.snapshot) };
}

export function serializeSnapshot(snapshot: DigestSnapshot): string {
  return JSON.stringify(snapshot);
}

/** A stable hash of every fact a digest shows, in an order that does not depend on the service's paging. */
function fingerprint(data: DigestData): string {
  const hash = createHash('sha256');
  const features = [...data.features].sort((a, b) => a.id.localeCompare(b.id));
  for (const f of features) {
    hash.update(`F${f.id}|${f.heading ?? ''}|${f.stage}|${f.canAdvance}\n`);
    for (const t of [...f.tasks].sort((a, b) => a.id.localeCompare(b.id))) {
      hash.update(`T${t.id}|${t.heading ?? ''}|${t.state}|${t.assigneeUserId ?? ''}\n`);
    }
    for (const a of [...f.assumptions].sort((x, y) => x.id.localeCompare(y.id))) {
      hash.update(`A${a.id}|${a.experiment?.state ?? ''}\n`);
    }
  }
  const waiting = [...data.feedbackWaiting].sort((a, b) => a.taskId.localeCompare(b.taskId));
  for (const w of waiting) hash.update(`W${w.taskId}|${w.count}\n`);
  return hash.digest('base64url');
}
