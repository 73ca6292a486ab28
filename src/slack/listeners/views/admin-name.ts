/** Admin form submission: one name: a team, channel, notion or account, new or renamed. */
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { nameSubmission } from '../../flows/admin/submissions.js';
import type { SubmitArgs } from '../router.js';

export function adminNameSubmission(svc: Services) {
  return (args: SubmitArgs) => handleSubmission(svc, args, nameSubmission(svc, args));
}
