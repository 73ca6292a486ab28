/**
 * What other topics use of the link topic (the admin modal's links section): the link form for a
 * given channel, the digest's time and zone inputs (their options are answered here), the link's own
 * settings, and unlinking. Its routes are bound by src/slack/topics.ts.
 */
export { digestTimeInputs } from './blocks.js';
export { DIGEST_TIME_INPUTS, linkModalFor } from './link-form.js';
export {
  CANVAS_SETTING_LABEL,
  changeLinkSetting,
  type LinkSettingChange,
  linkSettingsLine,
} from './settings.js';
export { unlinkChannel } from './unlink.js';
