/** The account topic's wire ids: the connect forms and the buttons about one's own account. */
import { field } from '../kit/ids.js';

export const ACCOUNT_VIEW = { connect: 'connect', connectAdmin: 'connect_admin' } as const;

export const ACCOUNT_ACTION = {
  /** Closes the person's own planning account and disconnects (behind a confirmation). */
  close: 'account_close',
  /** Disconnects (the Home tab's button; /plan disconnect does the same). */
  disconnect: 'disconnect',
} as const;

export const ACCOUNT_FIELD = { token: field('token') } as const;
