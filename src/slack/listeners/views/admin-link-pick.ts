/** Admin form submission: the Slack channel to link, then the link form. */
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { linkPickSubmission } from '../../flows/admin/submissions.js';
import type { SubmitArgs } from '../router.js';

export function adminLinkPickSubmission(svc: Services) {
  return (args: SubmitArgs) => handleSubmission(svc, args, linkPickSubmission(svc, args));
}
