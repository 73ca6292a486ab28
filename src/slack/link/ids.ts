/** The link topic's wire ids: the link form and its digest settings. */
import { field } from '../kit/ids.js';

export const LINK_VIEW = { link: 'link' } as const;

export const LINK_FIELD = {
  digestTime: field('digest_time'),
  timeZone: field('time_zone'),
  digestOptions: field('digest_options'),
} as const;
