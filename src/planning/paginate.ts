/**
 * Lazy paged lists. A list operation returns a {@link PageRequest}: `await` it for one page, or
 * `for await` over it for every item of every page. Nothing is fetched before either happens.
 */
import { LIMITS } from './models.js';

/** One page of a list, or every item across pages. */
export interface PageRequest<Page, Item> extends PromiseLike<Page>, AsyncIterable<Item> {
  /** Every page in turn, starting at the requested `pageNumber` (default 1). */
  pages(): AsyncIterable<Page>;
  /** As on a promise of the one page. */
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page | B>;
  /** As on a promise of the one page. */
  finally(onFinally?: (() => void) | null): Promise<Page>;
}

export interface PageSource<Page> {
  /** Fetches one page; `undefined` leaves the page number to the caller's query (or the service). */
  fetchPage(pageNumber: number | undefined): Promise<Page>;
  /** Key of the items array in a page, e.g. `features`. */
  itemsKey: string;
  /** The caller's paging arguments. */
  pageNumber?: number;
  pageSize?: number;
  /** Safety stop for a service that never runs out of full pages. */
  maxPages: number;
  /** The error to throw when `maxPages` is reached. */
  tooManyPages: () => Error;
}

interface PageFields {
  pageSize?: number;
  total?: number;
}

class LazyPageRequest<Page, Item> implements PageRequest<Page, Item> {
  #first: Promise<Page> | undefined;

  constructor(private readonly source: PageSource<Page>) {}

  // biome-ignore lint/suspicious/noThenProperty: being awaitable is the point of a PageRequest.
  then<A = Page, B = never>(
    onFulfilled?: ((page: Page) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page | B> {
    return this.#firstPage().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page> {
    return this.#firstPage().finally(onFinally);
  }

  #firstPage(): Promise<Page> {
    // Awaiting the same request twice must not fetch twice.
    this.#first ??= this.source.fetchPage(this.source.pageNumber);
    return this.#first;
  }

  async *pages(): AsyncGenerator<Page> {
    const { fetchPage, itemsKey, maxPages } = this.source;
    let pageNumber = this.source.pageNumber ?? 1;
    for (let fetched = 0; ; fetched++) {
      if (fetched >= maxPages) throw this.source.tooManyPages();
      const page = await fetchPage(pageNumber);
      yield page;
      const items = itemsOf(page, itemsKey);
      const { pageSize: served, total } = page as PageFields;
      const pageSize = served ?? this.source.pageSize ?? LIMITS.pageSize.default;
      const seen = (pageNumber - 1) * pageSize + items.length;
      if (items.length === 0 || items.length < pageSize || (total !== undefined && seen >= total)) return;
      pageNumber++;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for await (const page of this.pages()) yield* itemsOf(page, this.source.itemsKey) as Item[];
  }
}

function itemsOf(page: unknown, key: string): unknown[] {
  const items = (page as Record<string, unknown>)[key];
  return Array.isArray(items) ? items : [];
}

/** Wraps a page fetcher into a lazy, awaitable, iterable {@link PageRequest}. */
export function pageRequest<Page, Item>(source: PageSource<Page>): PageRequest<Page, Item> {
  return new LazyPageRequest<Page, Item>(source);
}
