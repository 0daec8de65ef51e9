import { useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api';
import { useServerMainOrigin } from '@/lib/page-origin';
import { apiServerUrl, type OpenApiDocument } from './openapi';

export const OPENAPI_URL = '/api/v1/openapi.json';

export const enterpriseKeys = {
  openapi: ['openapi', 'v1'] as const,
};

/** The OpenAPI document the server generates from its own schemas; it changes only on deploy. */
export function useOpenApiDocument({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: enterpriseKeys.openapi,
    queryFn: () => apiGet<OpenApiDocument>(OPENAPI_URL),
    staleTime: Infinity,
    enabled,
  });
}

/**
 * The main site's origin (where accounts, keys and the contact desk live): PUBLIC_URL, which the
 * server writes into the page (and gives its renderer) and the OpenAPI document names as its
 * server. Without either (the dev server, before the document loads), '' — links relative to
 * this site. Never window.location: the server-rendered markup must match the first render.
 */
export function useMainSiteOrigin(): string {
  const fromServer = useServerMainOrigin();
  // The landing and pricing pages need the document only when the server did not say.
  const { data } = useOpenApiDocument({ enabled: !fromServer });
  if (fromServer) return fromServer;
  if (!data) return '';
  try {
    return new URL(apiServerUrl(data, '')).origin;
  } catch {
    return '';
  }
}
