/** Read, on a `/plan search` result: the deep-context feature in full, in a modal. */
import { DEEP_CONTEXT_TITLE, deepContextModal } from '../../blocks/deep-context.js';
import { loadModal, modalRequest } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { type ActionArgs, actionValue } from '../router.js';

export function deepContextReadAction(svc: Services) {
  return async (args: ActionArgs) => {
    const featureId = actionValue(args.action);
    if (!featureId) return;
    await loadModal(
      { ...modalRequest(svc, args, args.body.trigger_id, 'deep context read'), title: DEEP_CONTEXT_TITLE },
      async ({ planning }) => deepContextModal(await planning.deepContext.read(featureId)),
    );
  };
}
