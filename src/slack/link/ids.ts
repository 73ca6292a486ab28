/** The link topic's wire ids: the link form, its digest settings and the link's own settings. */
import { field } from '../kit/ids.js';

export const LINK_VIEW = { link: 'link' } as const;

export const LINK_FIELD = {
  digestTime: field('digest_time'),
  timeZone: field('time_zone'),
  digestOptions: field('digest_options'),
  /** The link's own settings (checkboxes, {@link LINK_CHOICES}): the watch, thread replies, the canvas. */
  linkOptions: field('link_options'),
} as const;

/** The values of the link's own settings in the form's checkboxes. */
export const LINK_CHOICES = {
  watch: 'watch',
  threadDiscoveries: 'thread_discoveries',
  canvas: 'canvas',
} as const;
