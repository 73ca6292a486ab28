/** The connect modals: a member pastes their own token; an admin saves the organization token. */
import type { ModalView } from '@slack/types';
import { context, input, type Mrkdwn, md, modal, section, textInput } from '../../blockkit/index.js';
import { FIELD, VIEW } from '../ids.js';
import { formProblem } from './views.js';

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
    callbackId: admin ? VIEW.connectAdmin : VIEW.connect,
    title: admin ? 'Connect organization' : 'Connect your account',
    submit: 'Connect',
    close: 'Cancel',
    blocks: [
      section(intro),
      input(
        'Service-account token',
        FIELD.token.block,
        textInput(FIELD.token.action, { placeholder: 'eyJ…' }),
      ),
      context(md`Anyone who sees a token can act as its account: paste it only here.`),
      ...(problem ? [formProblem(problem)] : []),
    ],
  });
}
