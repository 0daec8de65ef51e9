/**
 * The methods the route table answers at a concrete path: what a 405's `Allow` header lists.
 * Read from the routes as registered, so a route added later is listed without a hand list.
 */
export function allowedMethods(routes: readonly { method: string; url: string }[], path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (matcherFor(route.url).test(path)) methods.add(route.method);
  }
  // Fastify answers HEAD wherever it answers GET.
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

const matchers = new Map<string, RegExp>();

/** `/api/v1/users/:user_id` → one segment per parameter; a trailing slash is ignored like the router does. */
function matcherFor(url: string): RegExp {
  let re = matchers.get(url);
  if (!re) {
    const body = url
      .replace(/\/+$/, '')
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    re = new RegExp(`^${body}/?$`);
    matchers.set(url, re);
  }
  return re;
}
