/** Buttons about the person's own planning account, shared by `/plan disconnect --close` and the Home tab. */
import type { Button } from '@slack/types';
import { button, md } from '../../blockkit/index.js';
import { ACTION } from '../ids.js';

/** Closes the person's own account and disconnects, behind Slack's confirmation dialog. */
export function closeAccountButton(): Button {
  return button('Close my account', ACTION.accountClose, {
    style: 'danger',
    confirm: {
      title: 'Close your account?',
      text: md`Your planning account is closed and the app forgets it. Only an organization admin can re-open it.`,
      confirm: 'Close it',
      style: 'danger',
    },
  });
}

/** Disconnects (the app stops acting for the person), after a confirmation. */
export function disconnectButton(): Button {
  return button('Disconnect', ACTION.disconnect, {
    confirm: {
      title: 'Disconnect?',
      text: md`The app stops acting for you in this workspace.`,
      confirm: 'Disconnect',
    },
  });
}
