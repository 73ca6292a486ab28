/** Binds the searchable (external) selects to their option sources. */
import type { App } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { FIELD } from '../../ids.js';
import { featureOptions } from './features.js';
import { notionOptions } from './notions.js';
import { timeZoneOptions } from './time-zones.js';

export function registerOptions(app: App, svc: Services) {
  app.options({ action_id: FIELD.feature.action }, featureOptions(svc));
  app.options({ action_id: FIELD.notion.action }, notionOptions(svc));
  app.options({ action_id: FIELD.timeZone.action }, timeZoneOptions());
}
