/**
 * The edit of one's own discovery or feedback (from the Details modal): its text changes in the
 * service (discoveryUpdate / feedbackUpdate); the service refuses someone else's, and the form then
 * says so in one sentence with the text kept.
 */
import { z } from 'zod';
import { md } from '../../../blockkit/index.js';
import { MinuteRef, minuteEditModal } from '../../blocks/task-card.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { fieldValue, minuteText, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const MinuteForm = z.object({ ref: MinuteRef, text: minuteText('text') });
type MinuteForm = z.infer<typeof MinuteForm>;

export function minuteEditSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<MinuteForm>(svc, args, {
      action: 'minute-edit',
      title: 'Edit entry',
      working: 'Saving…',
      parse: (values: StateValues, meta) =>
        validateForm(
          MinuteForm,
          { ref: parseJson(meta), text: fieldValue(values, FIELD.minuteText) },
          values,
          { ref: FIELD.minuteText, text: FIELD.minuteText },
        ),
      retry: (data, problem) => minuteEditModal({ ref: data.ref, text: data.text, problem }),
      run: async ({ ref: r, text }) => {
        const { planning } = await planningOf(args.context).acting();
        if (r.k === 'd') {
          await planning.tasks.discoveryUpdate(r.teamId, r.channelId, r.featureId, r.taskId, r.id, {
            details: text,
          });
        } else {
          await planning.tasks.feedbackUpdate(r.teamId, r.channelId, r.featureId, r.taskId, r.id, {
            message: text,
          });
        }
        return { text: md`:white_check_mark: Your ${r.k === 'd' ? 'discovery' : 'feedback'} is saved.` };
      },
    });
}
