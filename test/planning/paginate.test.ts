import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, ServiceError } from '../../src/planning/index.js';
import { type MockService, mockService, rejectionOf } from '../helpers/planning-mock.js';

const LIST = '/v1/teams/team-1/channels/chan-1/features';

let service: MockService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** Serves `pages[n - 1]` for `pageNumber=n`; each page is `{ids, total?, pageSize?}`. */
async function serve(pages: { ids: string[]; total?: number; pageSize?: number }[], options = {}) {
  service = await mockService(options);
  service.pool
    .intercept({ path: (p) => p.startsWith(LIST), method: 'GET' })
    .reply(200, ({ path }) => {
      const pageNumber = Number(new URL(path, 'http://x').searchParams.get('pageNumber') ?? '1');
      const page = pages[pageNumber - 1] ?? { ids: [] };
      return {
        pageNumber,
        pageSize: page.pageSize,
        total: page.total,
        features: page.ids.map((id) => ({ id, stage: 'planning' })),
      };
    })
    .persist();
  return service;
}

function requestedPages(s: MockService): (string | undefined)[] {
  return s.calls().map((c) => c.searchParams.pageNumber);
}

async function idsOf(iterable: AsyncIterable<{ id: string }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of iterable) ids.push(item.id);
  return ids;
}

describe('for await over a list', () => {
  it('walks three pages and stops when the total is reached', async () => {
    const s = await serve([
      { ids: ['a', 'b'], total: 5 },
      { ids: ['c', 'd'], total: 5 },
      { ids: ['e'], total: 5 },
    ]);
    const ids = await idsOf(s.client.features.list('team-1', 'chan-1', { stage: 'planning', pageSize: 2 }));
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(requestedPages(s)).toEqual(['1', '2', '3']);
    expect(
      s.calls().every((c) => c.searchParams.stage === 'planning' && c.searchParams.pageSize === '2'),
    ).toBe(true);
  });

  it('does not ask for a page past the total, even when the last page is full', async () => {
    const s = await serve([
      { ids: ['a', 'b'], total: 4 },
      { ids: ['c', 'd'], total: 4 },
      { ids: ['never'], total: 4 },
    ]);
    expect(await idsOf(s.client.features.list('team-1', 'chan-1', { pageSize: 2 }))).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(requestedPages(s)).toEqual(['1', '2']);
  });

  it('stops on a short page when the service gives no total', async () => {
    const s = await serve([{ ids: ['a', 'b'] }, { ids: ['c'] }, { ids: ['never'] }]);
    expect(await idsOf(s.client.features.list('team-1', 'chan-1', { pageSize: 2 }))).toEqual(['a', 'b', 'c']);
    expect(requestedPages(s)).toEqual(['1', '2']);
  });

  it('stops on an empty page', async () => {
    const s = await serve([{ ids: ['a', 'b'] }, { ids: [] }, { ids: ['never'] }]);
    expect(await idsOf(s.client.features.list('team-1', 'chan-1', { pageSize: 2 }))).toEqual(['a', 'b']);
    expect(requestedPages(s)).toEqual(['1', '2']);
  });

  it("uses the service's page size when the caller gave none", async () => {
    const s = await serve([
      { ids: ['a', 'b'], pageSize: 2 },
      { ids: ['c', 'd'], pageSize: 2 },
      { ids: [], pageSize: 2 },
    ]);
    expect(await idsOf(s.client.features.list('team-1', 'chan-1'))).toEqual(['a', 'b', 'c', 'd']);
    expect(requestedPages(s)).toEqual(['1', '2', '3']);
  });

  it('starts at the requested page', async () => {
    const s = await serve([{ ids: ['a', 'b'] }, { ids: ['c', 'd'] }, { ids: ['e'] }]);
    const ids = await idsOf(s.client.features.list('team-1', 'chan-1', { pageNumber: 2, pageSize: 2 }));
    expect(ids).toEqual(['c', 'd', 'e']);
    expect(requestedPages(s)).toEqual(['2', '3']);
  });

  it('has a safety cap for a service that never runs out of full pages', async () => {
    const full = { ids: ['x', 'y'] };
    const s = await serve([full, full, full, full, full], { maxPages: 3 });
    const error = await rejectionOf(idsOf(s.client.features.list('team-1', 'chan-1', { pageSize: 2 })));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.message).toBe('features.list: stopped after 3 full pages');
    expect(requestedPages(s)).toEqual(['1', '2', '3']);
  });

  it('surfaces the failure of a later page', async () => {
    service = await mockService({ retries: 0 });
    service.pool
      .intercept({ path: `${LIST}?pageNumber=1&pageSize=1`, method: 'GET' })
      .reply(200, { features: [{ id: 'a' }] });
    service.pool
      .intercept({ path: `${LIST}?pageNumber=2&pageSize=1`, method: 'GET' })
      .replyWithError(new Error('socket hang up'));
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const f of service.client.features.list('team-1', 'chan-1', { pageSize: 1 }))
          seen.push(f.id);
      })(),
    );
    expect(seen).toEqual(['a']);
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('pages() yields the parsed page models', async () => {
    const s = await serve([
      { ids: ['a', 'b'], total: 3 },
      { ids: ['c'], total: 3 },
    ]);
    const pages = [];
    for await (const page of s.client.features.list('team-1', 'chan-1', { pageSize: 2 }).pages())
      pages.push(page);
    expect(pages.map((p) => [p.pageNumber, p.total, p.features.map((f) => f.id)])).toEqual([
      [1, 3, ['a', 'b']],
      [2, 3, ['c']],
    ]);
  });
});

describe('await on a list', () => {
  it('fetches just the one page, as the caller asked for it', async () => {
    const s = await serve([
      { ids: ['a', 'b'], total: 5 },
      { ids: ['c', 'd'], total: 5 },
    ]);
    const page = await s.client.features.list('team-1', 'chan-1', { pageSize: 2 });
    expect(page.features.map((f) => f.id)).toEqual(['a', 'b']);
    expect(page.total).toBe(5);
    expect(s.calls()).toHaveLength(1);
    // No pageNumber was given, so none is sent: the service's default applies.
    expect(s.calls()[0]?.searchParams).toEqual({ pageSize: '2' });
  });

  it('is lazy, and awaiting twice fetches once', async () => {
    const s = await serve([{ ids: ['a'] }]);
    const request = s.client.features.list('team-1', 'chan-1');
    expect(s.calls()).toHaveLength(0);
    const [first, second] = [await request, await request];
    expect(first).toBe(second);
    expect(s.calls()).toHaveLength(1);
  });

  it('has catch and finally like the promise of its page', async () => {
    const s = await serve([{ ids: ['a'] }]);
    let settled = false;
    const page = await s.client.features
      .list('team-1', 'chan-1')
      .catch(() => undefined)
      .finally(() => {
        settled = true;
      });
    expect(page?.features.map((f) => f.id)).toEqual(['a']);
    expect(settled).toBe(true);
    const caught = await s.client.features.list('team-1', 'chan-1', { pageSize: 0 }).catch((e: unknown) => e);
    expect(caught).toMatchObject({ name: 'InvalidArgumentError', field: 'pageSize' });
  });

  it('rejects on await when the query is bad, sending nothing', async () => {
    service = await mockService();
    const error = await rejectionOf(service.client.features.list('team-1', 'chan-1', { pageSize: 0 }));
    expect(error).toMatchObject({ name: 'InvalidArgumentError', field: 'pageSize' });
    expect(service.calls()).toHaveLength(0);
  });
});
