/**
 * `/plan who @someone` and `/plan who knows <notion>`, and the *Planning profile* button: private
 * answers read with the asker's own account. Whoever has no profile to show here — an unknown
 * person, a guest, a bot, someone from another organization or not connected — is one sentence.
 */
import { type Mrkdwn, md, modal, showsNothing } from '../../blockkit/index.js';
import { type ActionArgs, actionValue, type Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import type { Acting } from '../kit/identity.js';
import { COMMAND, VIEW } from '../kit/ids.js';
import { notice } from '../kit/messages.js';
import { loadModal, modalRequest } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { privateSurface, showFailure } from '../kit/surfaces.js';
import { knowsReply } from './knows.js';
import { findPerson } from './person.js';
import { profileReply } from './profile.js';

const USAGE = md`\`${COMMAND} who @someone\` shows a teammate's planning profile; \`${COMMAND} who knows <notion>\` ranks this channel's team on a notion.`;

/** What follows `who`: a mention (Slack sends `<@U…|name>`), or `knows` and a notion's name. */
export function parseWho(
  text: string,
): { kind: 'person'; slackUserId: string } | { kind: 'knows'; notion: string } | undefined {
  const person = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(text.trim());
  if (person) return { kind: 'person', slackUserId: person[1] as string };
  const knows = /^knows(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (knows) {
    const notion = (knows[1] ?? '').trim();
    return showsNothing(notion) ? undefined : { kind: 'knows', notion };
  }
  return undefined;
}

export const whoSubcommand: Subcommand<Services> = {
  name: 'who',
  usage: 'who @someone · who knows <notion>',
  summary:
    "a teammate's planning profile (experience, open tasks, features) · who in this channel's team knows a notion",
  async run(svc, { text, command, client, context, reply }) {
    const parsed = parseWho(text);
    if (!parsed) {
      const said: Mrkdwn = text === '' ? md`Whom should I show?` : md`I could not read that.`;
      await reply(notice(md`${said} ${USAGE}`));
      return;
    }
    const planning = planningOf(context);
    const acting = await planning.acting();
    if (parsed.kind === 'knows') {
      await reply(await knowsReply(svc, acting, command.channel_id, { name: parsed.notion }));
      return;
    }
    const found = await findPerson(svc, acting, client, planning.home, parsed.slackUserId);
    if ('refusal' in found) {
      await reply(notice(found.refusal));
      return;
    }
    await reply(await profileReply(svc, acting, found.person));
  },
};

const PROFILE_TITLE = 'Planning profile';
const WHOSE = md`I could not tell whose profile that button is for.`;

/** The profile of `slackUserId` as `acting` may see it, or the one sentence saying why not. */
async function profileOf(svc: Services, args: ActionArgs, acting: Acting, slackUserId: string) {
  const { home } = planningOf(args.context);
  const found = await findPerson(svc, acting, args.client, home, slackUserId);
  return 'refusal' in found ? notice(found.refusal) : await profileReply(svc, acting, found.person);
}

/**
 * *Planning profile* beside a person: the profile, privately — below the message it was pressed on,
 * or pushed over the modal it was pressed in (a Details view, the Assign form).
 */
export async function profileOpenAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const slackUserId = actionValue(args.action);
  if (args.body.view) {
    await loadModal(
      {
        ...modalRequest(svc, args, args.body.trigger_id, 'planning profile'),
        title: PROFILE_TITLE,
        push: true,
      },
      async (acting) => {
        const reply = slackUserId ? await profileOf(svc, args, acting, slackUserId) : notice(WHOSE);
        return modal({ callbackId: VIEW.info, title: PROFILE_TITLE, blocks: reply.blocks });
      },
    );
    return;
  }
  const surface = privateSurface(args, planning.slackUserId);
  try {
    if (!slackUserId) {
      await surface.show(notice(WHOSE));
      return;
    }
    await surface.show(await profileOf(svc, args, await planning.acting(), slackUserId));
  } catch (error) {
    await showFailure(svc.deps, surface, error, {
      action: 'planning profile',
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}
