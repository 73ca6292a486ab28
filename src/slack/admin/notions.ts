/** Notions: the skills people are graded on, searchable. */
import type { KnownBlock, ModalView } from '@slack/types';
import { actions, button, input, md, modal, section, textInput } from '../../blockkit/index.js';
import type { Notion } from '../../planning/index.js';
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
import { ADMIN_ACTION, ADMIN_FIELD, ADMIN_VIEW } from './ids.js';

export function notionsView(
  place: AdminPlace,
  notions: Notion[],
  total: number | undefined,
  flash?: Flash,
): ModalView {
  const blocks: KnownBlock[] = [
    ...flashBlocks(flash),
    section(md`The notions (skills) people grade themselves and their peers on.`, {
      accessory: formButton('New notion', { form: 'newNotion' }, 'primary'),
    }),
    input(
      'Search',
      ADMIN_FIELD.search.block,
      textInput(ADMIN_FIELD.search.action, {
        max: 256,
        value: place.search,
        placeholder: 'Part of a notion, then Enter or Search',
        dispatchOnEnter: true,
      }),
      { optional: true, dispatchAction: true },
    ),
  ];
  for (const notion of notions) {
    const name = shortName(notion.value);
    blocks.push(
      section(md`*${notion.value ?? notion.id}*`),
      actions(
        undefined,
        formButton('Rename', { form: 'renameNotion', id: notion.id, name }),
        button('Delete', ADMIN_ACTION.deleteNotion, {
          value: targetValue({ id: notion.id, name }),
          style: 'danger',
          confirm: {
            title: 'Delete the notion?',
            text: md`*${name || notion.id}* is deleted with every experience graded on it, for everyone.`,
            confirm: 'Delete notion',
            style: 'danger',
          },
        }),
      ),
    );
  }
  if (notions.length === 0) {
    blocks.push(
      section(place.search ? md`No notion matches “${place.search}”.` : md`No notion on this page.`),
    );
  }
  blocks.push(...pager(place, notions.length, total, 'notion'));
  return modal({
    callbackId: ADMIN_VIEW.section,
    title: placeTitle(place),
    // The search box is an input: Slack shows inputs only in a view with a submit button.
    submit: 'Search',
    privateMetadata: placeValue(place),
    blocks,
  });
}
