/** Pages of a `page`/`limit` list as one async iterator of items. */
export async function* paginate<Item>(
  fetchPage: (page: number) => Promise<{ items: Item[]; page: number; totalPages: number }>,
  firstPage = 1,
): AsyncGenerator<Item> {
  for (let page = firstPage; ; page++) {
    const result = await fetchPage(page);
    yield* result.items;
    if (result.items.length === 0 || result.page >= result.totalPages) return;
  }
}
