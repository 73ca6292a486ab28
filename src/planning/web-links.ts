/**
 * Links to the planning service's web app, from the deployment's templates (PLANNING_WEB_FEATURE_URL,
 * PLANNING_WEB_TASK_URL): `https://plan.example.com/t/{teamId}/c/{channelId}/f/{featureId}`. One
 * template both builds a link from a feature's or task's coordinates (the cards' "Open") and reads a
 * pasted link back to them (a Work Object unfurl): the two can never disagree.
 */

export type WebLinkKind = 'feature' | 'task';

/** The placeholders each template must carry, each once: what it takes to find the thing again. */
export const WEB_LINK_PLACEHOLDERS = {
  feature: ['teamId', 'channelId', 'featureId'],
  task: ['teamId', 'channelId', 'featureId', 'taskId'],
} as const satisfies Record<WebLinkKind, readonly string[]>;

export type WebLinkCoords<K extends WebLinkKind> = Record<(typeof WEB_LINK_PLACEHOLDERS)[K][number], string>;

/** The deployment's templates; a kind without one has no links. */
export interface WebLinkTemplates {
  feature?: string;
  task?: string;
}

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** Why `template` cannot be a `kind` link template, or undefined when it can. */
export function webLinkTemplateProblem(kind: WebLinkKind, template: string): string | undefined {
  const found = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  const wanted: readonly string[] = WEB_LINK_PLACEHOLDERS[kind];
  const unknown = found.filter((name) => !wanted.includes(name));
  if (unknown.length > 0) return `has unknown placeholders: ${unknown.map((n) => `{${n}}`).join(', ')}`;
  const missing = wanted.filter((name) => found.filter((f) => f === name).length !== 1);
  if (missing.length > 0) {
    return `must contain each of ${wanted.map((n) => `{${n}}`).join(', ')} exactly once`;
  }
  const sample = template.replace(PLACEHOLDER, 'x');
  const url = URL.canParse(sample) ? new URL(sample) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return 'must be an http(s) URL, e.g. https://plan.example.com/t/{teamId}/c/{channelId}/f/{featureId}';
  }
  if (url.host !== new URL(template.replace(PLACEHOLDER, 'y')).host) {
    return 'must name its host without placeholders (Slack unfurls links of a fixed domain)';
  }
  if (template.includes('#')) return 'must not have a #fragment';
  return undefined;
}

/** The host a template's links are on (the manifest's unfurl domain). */
export function webLinkHost(template: string): string {
  return new URL(template.replace(PLACEHOLDER, 'x')).hostname;
}

/** The link to a feature or task (`kind` types the coordinates), each URL-encoded into its placeholder. */
export function webLink<K extends WebLinkKind>(_kind: K, template: string, coords: WebLinkCoords<K>): string {
  return template.replace(PLACEHOLDER, (_, name: string) =>
    encodeURIComponent((coords as Record<string, string>)[name] ?? ''),
  );
}

/**
 * The coordinates a pasted link carries, when it is a link of `template` (a trailing slash aside);
 * undefined for any other link.
 */
export function parseWebLink<K extends WebLinkKind>(
  kind: K,
  template: string,
  url: string,
): WebLinkCoords<K> | undefined {
  const names: string[] = [];
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let pattern = '';
  let last = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    pattern += `${literal(template.slice(last, m.index))}([^/?#&]+)`;
    names.push(m[1]!);
    last = m.index + m[0].length;
  }
  pattern += literal(template.slice(last).replace(/\/$/, ''));
  const match = new RegExp(`^${pattern}/?$`).exec(url);
  if (!match) return undefined;
  const coords: Record<string, string> = {};
  try {
    names.forEach((name, i) => {
      coords[name] = decodeURIComponent(match[i + 1]!);
    });
  } catch {
    return undefined;
  }
  const wanted: readonly string[] = WEB_LINK_PLACEHOLDERS[kind];
  return wanted.every((name) => coords[name]) ? (coords as WebLinkCoords<K>) : undefined;
}
