/** User text inside the app's emphasis cannot close it (issue 23 item 7); Slack's tokens stay whole. */
import { describe, expect, it } from 'vitest';
import { inline, md, mention, slackDate } from '../../src/blockkit/index.js';

describe('md keeps the app’s emphasis whole', () => {
  it('a value inside bold cannot end it, wherever the bold opened on the line', () => {
    expect(md`*${'a*b'}*`.text).toBe('*a∗b*');
    expect(md`*Tasks matching “${'R*D'}”*: none.`.text).toBe('*Tasks matching “R∗D”*: none.');
    expect(md`_${'snake_case'}_`.text).toBe('_snake＿case_');
    expect(md`~${'a~b'}~`.text).toBe('~a∼b~');
  });

  it('outside emphasis, or on the next line, the value is left as typed (escaped)', () => {
    expect(md`• ${'a*b'}`.text).toBe('• a*b');
    expect(md`*Title*\n${'a*b'}`.text).toBe('*Title*\na*b');
    expect(md`:white_circle: ${'x_y'}`.text).toBe(':white_circle: x_y');
  });

  it("Slack's tokens inside an app-made value stay whole", () => {
    const when = slackDate(new Date(0), '{date_short_pretty}', 'then');
    expect(md`_${when}_`.text).toBe(`_${when.text}_`);
    expect(md`*${inline('a :white_circle: b*', 50)} ${mention('U1')}*`.text).toBe(
      '*a :white_circle: b∗ <@U1>*',
    );
  });
});
