/** Slack's documented Block Kit limits (api.slack.com/reference/block-kit). */
export const SLACK_LIMITS = {
  messageBlocks: 50,
  modalBlocks: 100,
  /** Home tab views, like modals. */
  homeBlocks: 100,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  modalTitle: 24,
  modalButton: 24,
  /** Option texts: 75 (the stricter of the figures Slack has published for select menus). */
  optionText: 75,
  optionValue: 150,
  options: 100,
  buttonText: 75,
  buttonValue: 2000,
  actionElements: 25,
  inputLabel: 2000,
  placeholder: 150,
  privateMetadata: 3000,
  blockId: 255,
  actionId: 255,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** `text` of a message (the notification fallback). */
  messageText: 40000,
} as const;
