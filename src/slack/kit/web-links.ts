/**
 * The deployment's web app links (PLANNING_WEB_FEATURE_URL, PLANNING_WEB_TASK_URL) as the Slack layer
 * uses them: a card's "Open" link, and what a pasted link points at. The templates themselves are
 * planning/web-links.ts's.
 */
import { type Config, webLinkTemplates } from '../../config.js';
import { parseWebLink, type WebLinkCoords, type WebLinkKind, webLink } from '../../planning/web-links.js';

type Templates = Pick<Config, 'PLANNING_WEB_FEATURE_URL' | 'PLANNING_WEB_TASK_URL'>;

/** `{ openUrl }` for a view, when the deployment has a template for `kind`; else nothing. */
export function openUrl<K extends WebLinkKind>(
  config: Templates,
  kind: K,
  coords: WebLinkCoords<K>,
): { openUrl?: string } {
  const template = webLinkTemplates(config)[kind];
  return template ? { openUrl: webLink(kind, template, coords) } : {};
}

/** What a pasted link is a page of: a task, a feature, or (undefined) nothing of ours. */
export type LinkedThing =
  | { kind: 'task'; coords: WebLinkCoords<'task'> }
  | { kind: 'feature'; coords: WebLinkCoords<'feature'> };

export function linkedThing(config: Templates, url: string): LinkedThing | undefined {
  const templates = webLinkTemplates(config);
  // A task's page first: a feature template may be a prefix of the task one.
  const task = templates.task ? parseWebLink('task', templates.task, url) : undefined;
  if (task) return { kind: 'task', coords: task };
  const feature = templates.feature ? parseWebLink('feature', templates.feature, url) : undefined;
  return feature ? { kind: 'feature', coords: feature } : undefined;
}

/** The page of a linked thing, rebuilt from its template (the canonical form of a pasted link). */
export function pageOf(config: Templates, thing: LinkedThing): string | undefined {
  return thing.kind === 'task'
    ? openUrl(config, 'task', thing.coords).openUrl
    : openUrl(config, 'feature', thing.coords).openUrl;
}
