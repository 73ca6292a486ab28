/**
 * "Log as evidence" on a message: the form prefilled with the message and its permalink. In a
 * feature card's thread (or on the card) the feature is known; elsewhere the user picks the feature
 * and the assumption from searchable selects of the Slack channel's linked planning channel.
 */
import { md } from '../../../blockkit/index.js';
import { NotFoundError } from '../../../planning/index.js';
import { type CardLike, featureCoordsFrom } from '../../blocks/feature.js';
import { EVIDENCE_TITLE, type EvidenceMeta, evidenceModal } from '../../blocks/feature-forms.js';
import { prefillTask } from '../../blocks/task.js';
import { noticeView } from '../../blocks/views.js';
import { planningOf } from '../../context/middleware.js';
import { loadModal, modalRequest } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { COMMAND } from '../../ids.js';
import type { MessageShortcutArgs } from '../router.js';

export function logEvidenceShortcut(svc: Services) {
  return async (args: MessageShortcutArgs) => {
    const { shortcut, client } = args;
    const planning = planningOf(args.context);
    await loadModal(
      { ...modalRequest(svc, args, shortcut.trigger_id, 'log evidence open'), title: EVIDENCE_TITLE },
      async ({ planning: service }) => {
        const channel = shortcut.channel.id;
        const msg = shortcut.message;
        const [link, permalink, parent] = await Promise.all([
          svc.deps.store.links.get(planning.workspaceId, channel),
          client.chat
            .getPermalink({ channel, message_ts: msg.ts })
            .then((r) => r.permalink)
            .catch(() => undefined),
          msg.thread_ts ? svc.deps.store.cards.find(planning.workspaceId, channel, msg.thread_ts) : undefined,
        ]);
        const evidence = prefillTask(msg.text ?? '', permalink).details;
        // The feature: the card itself, or the card whose thread this is (cards live in linked channels).
        const onCard = featureCoordsFrom(msg as CardLike);
        const inThread =
          parent?.kind === 'feature' && link
            ? { teamId: link.teamId, channelId: link.channelId, featureId: parent.entityId }
            : undefined;
        const known = onCard ?? inThread;
        if (known) {
          try {
            const feature = await service.features.read(known.teamId, known.channelId, known.featureId);
            if (feature.stage === 'deep context') {
              return noticeView(
                EVIDENCE_TITLE,
                md`:lock: *${feature.heading ?? feature.id}* is in deep context: it is read-only.`,
              );
            }
            return evidenceModal({ meta: known, featureHeading: feature.heading, evidence });
          } catch (error) {
            if (!(error instanceof NotFoundError)) throw error;
          }
        }
        if (!link) {
          return noticeView(
            EVIDENCE_TITLE,
            md`This channel is not linked to a planning channel: use *Log as evidence* in a feature card's thread, or \`${COMMAND} link\` this channel first.`,
          );
        }
        const meta: EvidenceMeta = { teamId: link.teamId, channelId: link.channelId };
        return evidenceModal({ meta, evidence });
      },
    );
  };
}
