/**
 * The admin topic's routes: the admin modal, its sections, forms and buttons. Every one of them is
 * for workspace admins — checked by the router for each request, form submissions included, so a
 * person demoted while a modal is open, or a crafted request, changes nothing.
 */
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import { pushCheckout } from './billing.js';
import { digestTimeSubmission } from './digest-time-form.js';
import { ADMIN_ACTION, ADMIN_FIELD, ADMIN_VIEW } from './ids.js';
import { invitationSubmission } from './invitation-form.js';
import { linkPickSubmission } from './link-pick-form.js';
import { nameSubmission } from './name-form.js';
import {
  adminGoAction,
  adminLinksAction,
  adminSectionAction,
  checkoutClosed,
  checkoutDoneSubmission,
} from './navigate.js';
import { FORM_ACTION_IDS, pushForm } from './open-form.js';
import { applyOperation, OPERATIONS } from './operations.js';
import { personSubmission } from './person-form.js';
import { adminSubcommand } from './root.js';
import { searchAction, searchSubmission } from './section-search.js';
import { shareSubmission, shareToPicked } from './share-form.js';

export const adminRoutes: TopicRoutes<Services> = {
  topic: 'admin',
  gate: { access: 'admin', doing: 'administer the organization from Slack' },
  subcommands: [adminSubcommand],
  actions: {
    [ADMIN_ACTION.openModal]: adminLinksAction,
    [ADMIN_ACTION.section]: adminSectionAction,
    [ADMIN_ACTION.pagePrevious]: adminGoAction,
    [ADMIN_ACTION.pageNext]: adminGoAction,
    [ADMIN_ACTION.open]: adminGoAction,
    [ADMIN_ACTION.back]: adminGoAction,
    [ADMIN_FIELD.search.action]: searchAction,
    [ADMIN_FIELD.shareTo.action]: { inView: ADMIN_VIEW.share, run: shareToPicked },
    [ADMIN_ACTION.checkout]: pushCheckout,
    ...Object.fromEntries(FORM_ACTION_IDS.map((id) => [id, pushForm])),
    ...Object.fromEntries(Object.keys(OPERATIONS).map((id) => [id, applyOperation])),
  },
  views: {
    [ADMIN_VIEW.section]: searchSubmission,
    [ADMIN_VIEW.invitation]: submission(invitationSubmission),
    [ADMIN_VIEW.share]: submission(shareSubmission),
    [ADMIN_VIEW.name]: submission(nameSubmission),
    [ADMIN_VIEW.person]: submission(personSubmission),
    [ADMIN_VIEW.linkPick]: submission(linkPickSubmission),
    [ADMIN_VIEW.digestTime]: submission(digestTimeSubmission),
    [ADMIN_VIEW.checkout]: checkoutDoneSubmission,
  },
  closes: {
    [ADMIN_VIEW.checkout]: checkoutClosed,
  },
};
