import { gradeModal } from '../../../blocks/grade.js';
import { md } from '../../../blocks/kit.js';
import { notice } from '../../../blocks/messages.js';
import { GradeInput, recordGrade } from '../../views/grade.js';
import type { Subcommand } from './subcommand.js';

const USAGE = '`/plan grade @user <notion> <1-10>` — or `/plan grade` alone for the form.';

/** `@user notion words 7` (mentions arrive escaped as `<@U…|name>`). */
export function parseGradeArgs(args: string): { peer: string; notion: string; grade: string } | undefined {
  const match = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>\s+(.+?)\s+(\S+)$/.exec(args.trim());
  if (!match) return undefined;
  const [, peer, notion, grade] = match as unknown as [string, string, string, string];
  return { peer, notion, grade };
}

/**
 * `/plan grade`: the form, or a grade in one line. The notion must exist (matched by name): a typo
 * must not create a new notion in the organization's vocabulary.
 */
export const grade: Subcommand = {
  name: 'grade',
  usage: 'grade @user <notion> <1-10>',
  summary: "grade a peer's notion, anonymously (or yourself)",
  async run({ args, command, client, planning, svc, reply }) {
    if (args === '') {
      await client.views.open({ trigger_id: command.trigger_id, view: gradeModal() });
      return;
    }
    const parsed = parseGradeArgs(args);
    if (!parsed) {
      await reply(notice(`I could not read that. ${USAGE}`));
      return;
    }
    const gradeCheck = GradeInput.shape.grade.safeParse(parsed.grade);
    if (!gradeCheck.success) {
      await reply(notice(md`\`${parsed.grade}\` is not a grade: give a whole number from 1 to 10.`));
      return;
    }
    const { planning: service } = await planning.acting();
    const { notions } = await service.notions.search({ searchTerm: parsed.notion, pageSize: 100 });
    const wanted = parsed.notion.toLowerCase();
    const notion = notions.find((n) => (n.value ?? '').toLowerCase() === wanted);
    if (!notion) {
      const close = notions.slice(0, 5).map((n) => md`\`${n.value ?? n.id}\``);
      await reply(
        notice(
          md`There is no notion named “${parsed.notion}”.` +
            (close.length > 0 ? ` Did you mean ${close.join(', ')}?` : ' Check its spelling.'),
        ),
      );
      return;
    }
    const text = await recordGrade(svc, planning, client, {
      peer: parsed.peer,
      notionId: notion.id,
      notionName: notion.value,
      grade: gradeCheck.data,
    });
    await reply(notice(text));
  },
};
