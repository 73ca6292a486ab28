/**
 * What other topics use of the link topic: its routes, the link form for a given channel, the
 * digest's time and zone inputs (their options are answered here), the link's own settings, and
 * unlinking.
 */
export { digestTimeInputs } from './blocks.js';
export { DIGEST_TIME_INPUTS, linkModalFor } from './link-form.js';
export { linkRoutes } from './routes.js';
export {
  changeLinkSetting,
  LINK_SETTING_LABELS,
  type LinkSetting,
  type LinkSettingChange,
  linkSettingsLine,
} from './settings.js';
export { unlinkChannel } from './unlink.js';
