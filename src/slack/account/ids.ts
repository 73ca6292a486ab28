/** The account topic's wire ids: the connect forms and the buttons about one's own account. */
import { field } from '../kit/ids.js';

export const ACCOUNT_VIEW = { connect: 'connect', connectAdmin: 'connect_admin' } as const;

export const ACCOUNT_ACTION = {
  /** Closes the person's own planning account and disconnects (behind a confirmation). */
  close: 'account_close',
  /** Disconnects (the Home tab's button; /plan disconnect does the same). */
  disconnect: 'disconnect',
  /** Home: whether a pasted account's name and photo follow the Slack profile (value `on`/`off`). */
  followProfile: 'account_follow_profile',
} as const;

/** The value of the connect form's follow-profile checkbox when ticked. */
export const FOLLOW_PROFILE_OPTION = 'follow';

export const ACCOUNT_FIELD = { token: field('token'), followProfile: field('follow_profile') } as const;
