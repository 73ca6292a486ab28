/** Matching what a user typed in a searchable select. */

/** Case- and accent-insensitive substring match; an empty query matches everything. */
export function matches(text: string, query: string | undefined): boolean {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[_\s]+/g, ' ');
  const q = fold(query ?? '').trim();
  return q === '' || fold(text).includes(q);
}
