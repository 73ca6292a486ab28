import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { LINK_FIELD, LINK_VIEW } from '../../../src/slack/link/ids.js';
import { choice, Harness, TEAM } from '../../helpers/slack-harness.js';

describe('/plan link', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    h.slack.users.set('U1', { id: 'U1', name: 'ana' });
    h.slack.users.set('UADMIN', { id: 'UADMIN', name: 'root', isAdmin: true, tz: 'America/New_York' });
  });
  afterEach(() => h.close());

  it('is for workspace admins only', async () => {
    await h.connect('U1');
    await h.command('link');
    expect(JSON.stringify((await h.slack.waitFor('respond')).body)).toContain(
      'Only workspace admins can use `/plan link`',
    );
    expect(h.slack.called('views.open')).toEqual([]);
  });

  it('unlink is for workspace admins only: the link stays', async () => {
    await h.connect('U1');
    await h.link('C42', 'UADMIN');
    await h.command('unlink', 'U1', 'C42');
    expect(JSON.stringify((await h.slack.waitFor('respond')).body)).toContain(
      'Only workspace admins can use `/plan unlink`',
    );
    expect(await h.store.links.get(TEAM, 'C42')).toMatchObject({
      teamId: h.fixture.teamId,
      channelId: h.fixture.channelId,
    });
    expect(JSON.stringify(h.slack.called('respond'))).not.toContain('no longer linked');
  });

  it('links the channel: team, then its channels, time and the admin’s time zone', async () => {
    await h.connect('UADMIN', 'admin');
    await h.command('link', 'UADMIN', 'C42');
    const filled = await h.slack.waitFor('views.update', (b) =>
      JSON.stringify(b.view).includes(`"callback_id":"${LINK_VIEW.link}"`),
    );
    const viewId = String(filled.body.view_id);
    const form = JSON.stringify(filled.body.view);
    expect(form).toContain('Core team');
    expect(form).toContain('"value":"America/New_York"');

    await h.choose({ view: viewId }, FIELD.team, choice(h.fixture.teamId, 'Core team'), { user: 'UADMIN' });
    await h.slack.waitFor('views.update', (b) =>
      JSON.stringify(b.view).includes(`channel|${h.fixture.teamId}`),
    );

    await h.submit(
      viewId,
      [
        [FIELD.team, choice(h.fixture.teamId, 'Core team')],
        [FIELD.channel, choice(h.fixture.channelId, 'General')],
        [LINK_FIELD.digestTime, { type: 'timepicker', selected_time: '08:30' }],
        [
          LINK_FIELD.timeZone,
          {
            type: 'external_select',
            selected_option: {
              value: 'America/New_York',
              text: { type: 'plain_text', text: 'America/New York' },
            },
          },
        ],
        [
          LINK_FIELD.digestOptions,
          {
            type: 'checkboxes',
            selected_options: [{ value: 'enabled', text: { type: 'plain_text', text: 'x' } }],
          },
        ],
      ],
      { user: 'UADMIN' },
    );
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('is linked to'));
    expect(await h.store.links.get(TEAM, 'C42')).toMatchObject({
      teamId: h.fixture.teamId,
      channelId: h.fixture.channelId,
      digestTime: '08:30',
      timeZone: 'America/New_York',
      weekdaysOnly: false,
      digestEnabled: true,
      createdBy: 'UADMIN',
    });

    await h.command('unlink', 'UADMIN', 'C42');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('no longer linked'));
    expect(await h.store.links.get(TEAM, 'C42')).toBeUndefined();
  });

  it('refuses a link without a channel or with a bad time zone, on the right fields', async () => {
    await h.connect('UADMIN', 'admin');
    await h.command('link', 'UADMIN', 'C42');
    const filled = await h.slack.waitFor('views.update', (b) =>
      JSON.stringify(b.view).includes(`"callback_id":"${LINK_VIEW.link}"`),
    );
    const res = await h.submit(
      String(filled.body.view_id),
      [
        [FIELD.team, choice(h.fixture.teamId)],
        [LINK_FIELD.digestTime, { type: 'timepicker', selected_time: '08:30' }],
        [
          LINK_FIELD.timeZone,
          {
            type: 'external_select',
            selected_option: { value: 'Mars/Olympus', text: { type: 'plain_text', text: 'x' } },
          },
        ],
      ],
      { user: 'UADMIN' },
    );
    expect(res.json()).toEqual({
      response_action: 'errors',
      errors: {
        [FIELD.channel.block]: 'Choose a planning channel.',
        [LINK_FIELD.timeZone.block]: 'Choose a time zone from the list.',
      },
    });
    expect(await h.store.links.get(TEAM, 'C42')).toBeUndefined();
  });
});
