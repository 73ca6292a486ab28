/**
 * The account topic's messages and modals: the connect modals (a member pastes their own token;
 * an admin saves the organization token), who one acts as, and the buttons about one's own account.
 */

import type { Button, InputBlock, KnownBlock, ModalView } from '@slack/types';
import {
  button,
  context,
  input,
  type Mrkdwn,
  md,
  message,
  modal,
  section,
  textInput,
} from '../../blockkit/index.js';
import type { Reply } from '../kit/messages.js';
import { formProblem } from '../kit/modal.js';
import { ACCOUNT_ACTION, ACCOUNT_FIELD, ACCOUNT_VIEW, FOLLOW_PROFILE_OPTION } from './ids.js';

/**
 * The token form. It never carries a token back in: after a refusal the user pastes again, so a
 * secret is never echoed into a view.
 */
export function connectModal({
  admin = false,
  problem,
}: {
  admin?: boolean;
  problem?: Mrkdwn;
} = {}): ModalView {
  const intro = admin
    ? md`Paste a token of an organization *owner or admin* service account. The app will use it only to create a service account for each member on first use.`
    : md`Paste the token of your service account from the Team Planning Service. It is checked, then stored encrypted; it is never shown again.`;
  return modal({
    callbackId: admin ? ACCOUNT_VIEW.connectAdmin : ACCOUNT_VIEW.connect,
    title: admin ? 'Connect organization' : 'Connect your account',
    submit: 'Connect',
    close: 'Cancel',
    blocks: [
      section(intro),
      input(
        'Service-account token',
        ACCOUNT_FIELD.token.block,
        textInput(ACCOUNT_FIELD.token.action, { placeholder: 'eyJ…' }),
      ),
      context(md`Anyone who sees a token can act as its account: paste it only here.`),
      ...(admin ? [] : [followProfileInput()]),
      ...(problem ? [formProblem(problem)] : []),
    ],
  });
}

/**
 * The choice whether a pasted account takes the person's Slack name and photo, off unless ticked: the
 * account may be shared, or named differently on purpose. Changeable later on Home.
 */
function followProfileInput(): InputBlock {
  return input(
    'Name and photo',
    ACCOUNT_FIELD.followProfile.block,
    {
      type: 'checkboxes',
      action_id: ACCOUNT_FIELD.followProfile.action,
      options: [
        {
          text: { type: 'plain_text', text: 'Use my Slack name and photo for this account' },
          description: {
            type: 'plain_text',
            text: 'Its name and avatar then follow your Slack profile. Leave it off for a shared account.',
          },
          value: FOLLOW_PROFILE_OPTION,
        },
      ],
    },
    { optional: true },
  );
}

/** Whether a pasted account follows the Slack profile, and the button that changes it (Home). */
export function followProfileBlocks(follows: boolean): KnownBlock[] {
  const text = follows
    ? md`Its name and photo follow your Slack profile.`
    : md`Its name and photo stay as they are in the planning service; your Slack profile is not copied.`;
  return [
    section(text, {
      accessory: button(
        follows ? 'Stop following Slack' : 'Use my Slack name and photo',
        ACCOUNT_ACTION.followProfile,
        { value: follows ? 'off' : 'on' },
      ),
    }),
  ];
}

/** Closes the person's own account and disconnects, behind Slack's confirmation dialog. */
export function closeAccountButton(): Button {
  return button('Close my account', ACCOUNT_ACTION.close, {
    style: 'danger',
    confirm: {
      title: 'Close your account?',
      text: md`Your planning account is closed and the app forgets it; its tasks, grades and history stay with the closed account. Only an organization admin can re-open it.`,
      confirm: 'Close it',
      style: 'danger',
    },
  });
}

/** Disconnects (the app stops acting for the person), after a confirmation. */
export function disconnectButton(): Button {
  return button('Disconnect', ACCOUNT_ACTION.disconnect, {
    confirm: {
      title: 'Disconnect?',
      text: md`The app stops acting for you in this workspace. Your planning account stays as it is, to connect again later.`,
      confirm: 'Disconnect',
    },
  });
}

export interface WhoAmI {
  userName?: string;
  orgName?: string;
  orgId: string;
  role?: string;
  origin: 'provisioned' | 'brought';
}

/** Who the user acts as; never the token. */
export function whoamiMessage(who: WhoAmI): Reply {
  const how =
    who.origin === 'provisioned' ? 'a service account the app created for you' : 'a token you pasted';
  const role = who.role ? md` as ${who.role}` : md``;
  const text = md`You act as *${who.userName ?? 'an unnamed account'}* in organization *${who.orgName ?? who.orgId}*${role}.`;
  return message(text, [
    section(md`:bust_in_silhouette: ${text}`),
    context(md`Connected with ${how}. Connection: OK.`),
  ]);
}
