/** Walks a `{ data, has_more }` list with the `starting_after` cursor (the last item's id). */
export async function* paginate<Item, Params extends { starting_after?: string }>(
  fetchPage: (params: Params) => Promise<{ data: Item[]; has_more: boolean }>,
  params: Params,
  idOf: (item: Item) => string,
): AsyncGenerator<Item, void, undefined> {
  let query = params;
  for (;;) {
    const page = await fetchPage(query);
    yield* page.data;
    const last = page.data[page.data.length - 1];
    if (!page.has_more || last === undefined) return;
    query = { ...query, starting_after: idOf(last) };
  }
}
