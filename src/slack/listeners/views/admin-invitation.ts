/** Admin form submission: an invitation, new or edited. */
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { invitationSubmission } from '../../flows/admin/submissions.js';
import type { SubmitArgs } from '../router.js';

export function adminInvitationSubmission(svc: Services) {
  return (args: SubmitArgs) => handleSubmission(svc, args, invitationSubmission(svc, args));
}
