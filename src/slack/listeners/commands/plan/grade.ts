import { joinMd, md } from '../../../../blockkit/index.js';
import { GRADE_TITLE, gradeModal } from '../../../blocks/grade.js';
import { notice } from '../../../blocks/messages.js';
import { modalRequest, openModal } from '../../../context/modal.js';
import { connectBeforeForm, viewSurface } from '../../../context/reply.js';
import { GradeInput, recordGrade } from '../../../flows/grade.js';
import type { Subcommand } from './subcommand.js';

const USAGE = md`\`/plan grade @user <notion> <1-10>\` — or \`/plan grade\` alone for the form.`;

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
  async run(ctx) {
    const { args, command, client, planning, svc, reply } = ctx;
    if (args === '') {
      const opened = await openModal(modalRequest(svc, ctx, command.trigger_id, '/plan grade'), gradeModal());
      if (opened) await connectBeforeForm(planning, viewSurface(client, opened.id, GRADE_TITLE));
      return;
    }
    const parsed = parseGradeArgs(args);
    if (!parsed) {
      await reply(notice(md`I could not read that. ${USAGE}`));
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
      const hint = close.length > 0 ? md` Did you mean ${joinMd(close, ', ')}?` : md` Check its spelling.`;
      await reply(notice(md`There is no notion named “${parsed.notion}”.${hint}`));
      return;
    }
    const text = await recordGrade(planning, {
      peer: parsed.peer,
      notionId: notion.id,
      notionName: notion.value,
      grade: gradeCheck.data,
    });
    await reply(notice(text));
  },
};
