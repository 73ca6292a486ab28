/** Admin form submission: a Slack person: added to or removed from a team or channel, or their teams shown. */
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { personSubmission } from '../../flows/admin/submissions.js';
import type { SubmitArgs } from '../router.js';

export function adminPersonSubmission(svc: Services) {
  return (args: SubmitArgs) => handleSubmission(svc, args, personSubmission(svc, args));
}
