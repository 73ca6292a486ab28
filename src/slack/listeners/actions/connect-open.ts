/** The Connect button (in a message or a modal): opens the token form. */
import { connectModal } from '../../blocks/connect.js';
import { modalRequest, openModal } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import type { ActionArgs } from '../router.js';

export function connectOpenAction(svc: Services) {
  return async (args: ActionArgs) => {
    const { body, client } = args;
    if (body.view) await client.views.update({ view_id: body.view.id, view: connectModal() });
    else await openModal(modalRequest(svc, args, body.trigger_id, 'connect open'), connectModal());
  };
}
