/** People: the organization's service accounts, open and closed, with the Slack user each belongs to. */
import type { KnownBlock, ModalView } from '@slack/types';
import { actions, button, md, mention, modal, section } from '../../blockkit/index.js';
import type { ServiceAccount } from '../../planning/index.js';
import {
  type AdminPlace,
  type Flash,
  flashBlocks,
  formButton,
  pager,
  placeTitle,
  placeValue,
  shortName,
  targetValue,
} from './common.js';
import { ADMIN_ACTION, ADMIN_VIEW } from './ids.js';

export interface PersonRow {
  account: ServiceAccount;
  /** The Slack user of this workspace acting with the account, if any. */
  slackUserId?: string;
}

export function personLine({ account, slackUserId }: PersonRow) {
  const who = slackUserId ? md` · ${mention(slackUserId)}` : md` · no Slack user here`;
  const state = account.closedTime ? md`closed` : md`open`;
  return md`*${account.userName ?? account.id}* · ${account.roleOrg ?? 'no role'} · ${state}${who}`;
}

export function peopleView(
  place: AdminPlace,
  rows: PersonRow[],
  total: number | undefined,
  flash?: Flash,
): ModalView {
  const blocks: KnownBlock[] = [
    ...flashBlocks(flash),
    section(md`Service accounts of the organization, closed ones included. Tokens are never shown.`),
  ];
  for (const row of rows) {
    const { account } = row;
    const name = shortName(account.userName);
    const value = targetValue({ id: account.id, name });
    blocks.push(
      section(personLine(row)),
      actions(
        undefined,
        formButton('Rename', { form: 'renameAccount', id: account.id, name }),
        button(account.closedTime ? 'Re-open' : 'Regenerate token', ADMIN_ACTION.regenerate, {
          value,
          confirm: {
            title: account.closedTime ? 'Re-open the account?' : 'Regenerate the token?',
            text: row.slackUserId
              ? md`The old token stops working at once; the app stores the new one for ${mention(row.slackUserId)}, who keeps working without noticing.`
              : md`The old token stops working at once. Nobody in this workspace uses this account, so whoever held the token must get a new one.`,
            confirm: account.closedTime ? 'Re-open' : 'Regenerate',
          },
        }),
        ...(account.closedTime
          ? []
          : [
              // "Close account", not "Close": the modal's own Close button sits below it.
              button('Close account', ADMIN_ACTION.closeAccount, {
                value,
                style: 'danger',
                confirm: {
                  title: 'Close the account?',
                  text: md`*${name || account.id}* can no longer act in the planning service until it is re-opened.`,
                  confirm: 'Close account',
                  style: 'danger',
                },
              }),
            ]),
      ),
    );
  }
  if (rows.length === 0) blocks.push(section(md`No service account on this page.`));
  blocks.push(...pager(place, rows.length, total, 'account'));
  return modal({
    callbackId: ADMIN_VIEW.section,
    title: placeTitle(place),
    privateMetadata: placeValue(place),
    blocks,
  });
}
