import { TZDate } from '@date-fns/tz';
import { addDays, format } from 'date-fns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDigestScheduler,
  DIGEST_EVENT_TYPE,
  dueLocalDate,
  planningAccessFor,
} from '../../../src/digest/index.js';
import { createLogger } from '../../../src/logger.js';
import { formatLocal, wallClockInstant } from '../../../src/time.js';
import { BOT_TOKEN, Harness, TEAM } from '../../helpers/slack-harness.js';

const formatInTimeZone = (instant: Date, pattern: string) =>
  format(new TZDate(instant.getTime(), 'UTC'), pattern);

describe('/plan digest', () => {
  let h: Harness;
  const replyText = async (match: string) =>
    JSON.stringify((await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes(match))).body);

  beforeEach(async () => {
    h = await Harness.start({ provisioning: true });
    h.slack.users.set('U1', { id: 'U1', name: 'ana' });
    h.slack.users.set('UADMIN', { id: 'UADMIN', name: 'root', isAdmin: true });
  });
  afterEach(() => h.close());

  const linkChannel = () =>
    h.store.links.upsert({
      workspaceId: TEAM,
      slackChannelId: 'C1',
      teamId: h.fixture.teamId,
      channelId: h.fixture.channelId,
      createdBy: 'UADMIN',
      digestTime: '09:00',
      timeZone: 'America/New_York',
    });

  it('says how to link an unlinked channel', async () => {
    await h.command('digest');
    expect(await replyText('not linked')).toContain('/plan link');
  });

  it('shows the settings and the next run in the channel’s time zone', async () => {
    await linkChannel();
    await h.command('digest');
    const reply = await replyText('Daily digest');
    expect(reply).toContain('*on*, at *09:00* (America/New_York) on weekdays');
    expect(reply).toMatch(
      /Next digest: \*\w{3} \d{1,2} \w{3} \d{4}, (09:00|\d\d:\d\d) \(America\/New_York\)\*/,
    );
    expect(reply).toContain('No digest posted yet');
  });

  it('lets admins change time, zone, weekends and on/off; refuses others', async () => {
    await linkChannel();
    await h.command('digest 08:30', 'U1');
    expect(await replyText('Only workspace admins')).toContain('digest settings');
    expect((await h.store.links.get(TEAM, 'C1'))?.digestTime).toBe('09:00');

    await h.command('digest 08:30 Asia/Kolkata', 'UADMIN');
    expect(await replyText('Digest time set')).toContain('at *08:30* (Asia/Kolkata)');
    await h.command('digest weekends on', 'UADMIN');
    expect(await replyText('Weekends included')).toContain('every day, weekends included');
    await h.command('digest off', 'UADMIN');
    expect(await replyText('turned off')).toContain('*off*');
    expect(await h.store.links.get(TEAM, 'C1')).toMatchObject({
      digestTime: '08:30',
      timeZone: 'Asia/Kolkata',
      weekdaysOnly: false,
      digestEnabled: false,
    });
  });

  it('turned on after the day’s time has passed: says the real next time (tomorrow), not “now”', async () => {
    await linkChannel();
    await h.command('digest weekends on', 'UADMIN');
    await replyText('Weekends included');
    // The digest time set to this very minute (UTC), which has begun: today's was never expected.
    const now = new Date();
    const time = formatInTimeZone(now, 'HH:mm');
    await h.command(`digest ${time} UTC`, 'UADMIN');
    const reply = await replyText('Digest time set');
    const tomorrow = format(addDays(new TZDate(now.getTime(), 'UTC'), 1), 'yyyy-MM-dd');
    expect(reply).toContain(`Next digest: *${formatLocal(wallClockInstant(tomorrow, time, 'UTC'), 'UTC')}*`);
    // Nothing is due now: a scheduler pass at this instant posts nothing.
    const link = await h.store.links.get(TEAM, 'C1');
    expect(link && dueLocalDate(link, new Date())).toBeUndefined();
  });

  it('answers bad input with the reason and the usage, changing nothing', async () => {
    await linkChannel();
    await h.command('digest 25:00', 'UADMIN');
    const reply = await replyText('not a time of day');
    expect(reply).toContain('/plan digest weekends on|off');
    expect((await h.store.links.get(TEAM, 'C1'))?.digestTime).toBe('09:00');
  });

  /** `Last digest: <when, in the reader's zone> in <#C1> (<permalink|open it>).` — its parts. */
  const lastDigestLine = (reply: string) => {
    const found =
      /Last digest: <!date\^(\d+)\^\{date_short_pretty\} at \{time\}\|[^>]+> in <#C1> \(<(https?:[^|>]+)\|open it>\)\./.exec(
        reply,
      );
    expect(found, reply).not.toBeNull();
    return { seconds: Number(found![1]), permalink: found![2]! };
  };

  it('after a digest posted now, says when and where the last digest is, with a link to it (issue 36 item 3)', async () => {
    await linkChannel();
    await h.command('digest now');
    await replyText('Posted');
    // The store remembers the message that is in the channel.
    const [digest] = h.slack.workspace.inChannel('C1').filter((m) => m.user === h.slack.workspace.bot.userId);
    const recorded = (await h.store.links.get(TEAM, 'C1'))?.lastDigestNow;
    expect(recorded?.messageTs).toBe(digest?.ts);

    await h.command('digest');
    const reply = await replyText('Last digest');
    expect(reply).not.toContain('No digest posted yet');
    const line = lastDigestLine(reply);
    expect(line.seconds).toBe(Math.floor(recorded!.postedAt.getTime() / 1000));
    expect(line.permalink).toMatch(new RegExp(`/archives/C1/p${recorded!.messageTs.replace('.', '')}$`));
    // The permalink is Slack's own, asked through the sender for that message.
    expect(h.slack.called('chat.getPermalink').some((c) => c.body.message_ts === recorded!.messageTs)).toBe(
      true,
    );
  });

  it('after the scheduled digest, says when and where it is, with a link to it (issue 36 item 3)', async () => {
    await linkChannel();
    // The digest reads the channel with the account of whoever linked it, and posts in it.
    await h.connect('UADMIN', 'member');
    h.slack.channel('C1', 'UADMIN', 'U1');
    const scheduler = createDigestScheduler({
      store: h.store,
      logger: createLogger({ level: 'warn', destination: { write: () => {} } }),
      botTokenFor: async () => BOT_TOKEN,
      planningClientFor: planningAccessFor({ store: h.store, clients: h.clients }),
      slack: h.clients.slackBots,
    });
    // 09:00 in New York on the next weekday: the link's digest is due.
    let day = addDays(new Date(), 1);
    while ([0, 6].includes(new TZDate(day.getTime(), 'America/New_York').getDay())) day = addDays(day, 1);
    const localDate = format(new TZDate(day.getTime(), 'America/New_York'), 'yyyy-MM-dd');
    expect(await scheduler.tick(wallClockInstant(localDate, '09:01', 'America/New_York'))).toMatchObject({
      posted: 1,
    });
    const claim = await h.store.digests.lastPosted(TEAM, 'C1');
    expect(claim?.messageTs).toBeDefined();

    await h.command('digest');
    const line = lastDigestLine(await replyText('Last digest'));
    expect(line.seconds).toBe(Math.floor(claim!.postedAt.getTime() / 1000));
    expect(line.permalink).toMatch(new RegExp(`/archives/C1/p${claim!.messageTs!.replace('.', '')}$`));
  });

  it('posts a digest now, marked on demand, with the channel’s features', async () => {
    await linkChannel();
    await h.command('digest now');
    expect(await replyText('Posted')).toContain('<#C1>');
    const post = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'C1');
    expect(post.body.metadata).toEqual({
      event_type: DIGEST_EVENT_TYPE,
      event_payload: expect.objectContaining({ channel: 'C1', on_demand: true }),
    });
    expect(JSON.stringify(post.body.blocks)).toContain('Planning: *1*');
    expect(post.body.unfurl_links).toBe('false');
    // Not the day's digest: no claim was used.
    expect(await h.store.digests.lastPosted(TEAM, 'C1')).toBeUndefined();
  });
});
