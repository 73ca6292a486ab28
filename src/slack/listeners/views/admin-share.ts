/** Admin form submission: sharing an invitation in a channel or with a person. */
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { shareSubmission } from '../../flows/admin/submissions.js';
import type { SubmitArgs } from '../router.js';

export function adminShareSubmission(svc: Services) {
  return (args: SubmitArgs) => handleSubmission(svc, args, shareSubmission(svc, args));
}
