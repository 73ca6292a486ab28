/** The admin modal's pure builders: Slack's limits on full pages, paging, plain words, escaping. */
import { describe, expect, it } from 'vitest';
import { SLACK_LIMITS } from '../../../src/blockkit/index.js';
import { formatLocal } from '../../../src/digest/time.js';
import type { Invitation, ServiceAccount, TeamExpanded } from '../../../src/planning/index.js';
import { checkoutView, priceText, subscriptionSentence } from '../../../src/slack/admin/billing.js';
import { PAGE_SIZE, pager } from '../../../src/slack/admin/common.js';
import { ADMIN_ACTION } from '../../../src/slack/admin/ids.js';
import { invitationMessage, invitationsView, usesText } from '../../../src/slack/admin/invitations.js';
import { peopleView } from '../../../src/slack/admin/people.js';
import { channelView, teamView } from '../../../src/slack/admin/teams.js';

const json = (v: unknown) => JSON.stringify(v);

describe('admin builders', () => {
  it('keeps a full page of every list within the modal limit', () => {
    const accounts: ServiceAccount[] = Array.from({ length: PAGE_SIZE }, (_, i) => ({
      id: `a${i}`,
      userName: `Person ${i}`,
      closedTime: 0,
      teams: [],
    }));
    const people = peopleView(
      { section: 'people', page: 1 },
      accounts.map((account) => ({ account })),
      500,
    );
    expect(people.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.modalBlocks);
    const invitations: Invitation[] = accounts.map((a) => ({ id: a.id, inviteName: a.userName }));
    const list = invitationsView({ section: 'invitations', page: 1 }, invitations, new Map(), 500);
    expect(list.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.modalBlocks);
    const team: TeamExpanded = {
      id: 't',
      teamName: 'Big',
      channels: Array.from({ length: 80 }, (_, i) => ({
        id: `c${i}`,
        channelName: `c${i}`,
        isDefault: i === 0,
      })),
    };
    const teamBlocks = teamView({ section: 'team', page: 1, teamId: 't' }, team).blocks;
    expect(teamBlocks.length).toBeLessThanOrEqual(SLACK_LIMITS.modalBlocks);
    expect(json(teamBlocks)).toContain('…and 40 more channels');
    const members = accounts.map((a) => ({ id: a.id, userName: a.userName, closedTime: 0, teams: [] }));
    const channel = channelView(
      { section: 'channel', page: 1, teamId: 't', channelId: 'c0' },
      {
        team,
        channelId: 'c0',
        members,
        total: 500,
        prospects: members.slice(0, 10),
        slackUserOf: () => undefined,
      },
    );
    expect(channel.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.modalBlocks);
  });

  it('pages with the place to go to, and only where there is one', () => {
    const first = json(pager({ section: 'notions', page: 1, search: 'ty' }, PAGE_SIZE, 45, 'notion'));
    expect(first).toContain('Page 1 of 3 · 45 notions');
    expect(first).toContain(ADMIN_ACTION.pageNext);
    expect(first).not.toContain(ADMIN_ACTION.pagePrevious);
    expect(first).toContain(json(json({ s: 'notions', p: 2, q: 'ty' })).slice(1, -1));
    const last = json(pager({ section: 'notions', page: 3 }, 5, 45, 'notion'));
    expect(last).toContain(ADMIN_ACTION.pagePrevious);
    expect(last).not.toContain(ADMIN_ACTION.pageNext);
  });

  it('says the subscription, prices and uses in plain words', () => {
    expect(subscriptionSentence(null).text).toContain('no subscription');
    expect(
      subscriptionSentence({
        status: 'active',
        pricePlan: { id: 'p', productName: 'Pro' },
        renewsAt: '2026-12-01T00:00:00Z',
      }).text,
    ).toMatch(/Subscribed to \*Pro\*; it renews <!date\^\d+\^/);
    expect(subscriptionSentence({ status: 'cancelled', endsAt: '2026-12-01T00:00:00Z' }).text).toContain(
      'was cancelled',
    );
    expect(priceText({ price: 1200, interval: 'month', intervalCount: 1 })).toBe('$12.00 USD per month');
    expect(priceText({ price: 10000, interval: 'month', intervalCount: 3 })).toBe(
      '$100.00 USD every 3 months',
    );
    expect(usesText({ inviteUses: 2, inviteUsesMax: 0 })).toBe('2 uses (no limit)');
    expect(usesText({ inviteUses: 2, inviteUsesMax: 5 })).toBe('2 of 5 uses');
  });

  it('escapes what the service names in a shared invitation', () => {
    const body = invitationMessage({
      invitation: { id: 'i1', inviteOrgName: '<!channel> Corp', expiresAt: '2026-12-01T10:00:00.000Z' },
      teamName: '<@U123> team',
      url: 'https://api.example/v1/invitations/i1',
    });
    expect(body.text).not.toContain('<!channel>');
    expect(json(body.blocks)).not.toContain('<@U123>');
    expect(json(body.blocks)).toContain('<https://api.example/v1/invitations/i1|Open the invitation>');
  });

  it("shows a checkout's expiry in the given time zone", () => {
    const expiresAt = '2026-11-26T11:30:00.000Z';
    const view = checkoutView('Pro', { id: 'c', url: 'https://pay.example/c', expiresAt }, 'Asia/Tokyo', {
      section: 'billing',
      page: 1,
    });
    expect(json(view)).toContain(formatLocal(new Date(expiresAt), 'Asia/Tokyo'));
    expect(json(view)).toContain('Thu 26 Nov 2026, 20:30 (Asia/Tokyo)');
  });
});
