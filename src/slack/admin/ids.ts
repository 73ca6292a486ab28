/** The admin topic's wire ids: the admin modal, its section views, forms and buttons. */
import { field } from '../kit/ids.js';

export const ADMIN_VIEW = {
  /** The admin modal's root (/plan admin, the Home tab's admin button). */
  root: 'admin',
  /** A section view pushed over the root. */
  section: 'admin_section',
  /**
   * Admin forms: an invitation (new or edited), sharing one, one name, a Slack person, a Slack
   * channel to link, a linked channel's digest time and zone.
   */
  invitation: 'admin_invitation',
  share: 'admin_share',
  name: 'admin_name',
  person: 'admin_person',
  linkPick: 'admin_link_pick',
  digestTime: 'admin_digest_time',
  /**
   * The checkout link pushed over Billing; submitting it (*Done*, once paid) shows Billing again as
   * the service now has it.
   */
  checkout: 'admin_checkout_view',
} as const;

/**
 * The admin modal's buttons. Each verb has its own id (one block holds several buttons, and action
 * ids are unique within a block); what it acts on travels in the button's value.
 */
export const ADMIN_ACTION = {
  /**
   * The Home tab's "Manage links and digests" (its admin section renders it): the admin modal,
   * opened at its links section.
   */
  openModal: 'admin_open',
  /**
   * Navigation: a section of the root view (pushed); within a section view, going to another place
   * (a page, a team's channels, a channel's members, back) updates the view in place.
   */
  section: 'admin_section',
  pagePrevious: 'admin_page_previous',
  pageNext: 'admin_page_next',
  open: 'admin_open_place',
  back: 'admin_back',
  /** Opens one of the admin forms (pushed): `admin_form_<form>`, the value says for what. */
  form: 'admin_form',
  /** Changes applied at once (confirmed where they destroy), once however often they are sent. */
  closeAccount: 'admin_close_account',
  regenerate: 'admin_regenerate',
  revokeInvitation: 'admin_revoke_invitation',
  deleteTeam: 'admin_delete_team',
  deleteChannel: 'admin_delete_channel',
  deleteNotion: 'admin_delete_notion',
  removeChannelMember: 'admin_remove_channel_member',
  addProspect: 'admin_add_prospect',
  checkout: 'admin_checkout',
  changePlan: 'admin_change_plan',
  cancelSubscription: 'admin_cancel_subscription',
  /** A linked channel's digest turned on or off, weekends included or skipped; the link removed. */
  digestOn: 'admin_digest_on',
  digestOff: 'admin_digest_off',
  weekendsOn: 'admin_digest_weekends_on',
  weekendsOff: 'admin_digest_weekends_off',
  unlink: 'admin_unlink',
  /** A linked channel's own settings: the watch of changes made outside Slack, thread replies as discoveries. */
  watchOn: 'admin_watch_on',
  watchOff: 'admin_watch_off',
  threadDiscoveriesOn: 'admin_thread_discoveries_on',
  threadDiscoveriesOff: 'admin_thread_discoveries_off',
  /** The plan kept in the channel's canvas: turned on, off (the canvas left with a last line) or deleted. */
  canvasOn: 'admin_canvas_on',
  canvasOff: 'admin_canvas_off',
  canvasDelete: 'admin_canvas_delete',
} as const;

export const ADMIN_FIELD = {
  inviteTeam: field('invite_team'),
  inviteName: field('invite_name'),
  inviteRole: field('invite_role'),
  inviteDays: field('invite_days'),
  inviteUses: field('invite_uses'),
  /** Sharing in a channel or with one person (dispatches: the form then asks for that one). */
  shareTo: field('share_to'),
  shareChannel: field('share_channel'),
  sharePerson: field('share_person'),
  name: field('name'),
  description: field('description'),
  person: field('person'),
  slackChannel: field('slack_channel'),
  /** The admin sections' search box (dispatches on Enter). */
  search: field('admin_search'),
} as const;
