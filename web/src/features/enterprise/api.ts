import { useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api';
import { apiServerUrl, type OpenApiDocument } from './openapi';

export const OPENAPI_URL = '/api/v1/openapi.json';

export const enterpriseKeys = {
  openapi: ['openapi', 'v1'] as const,
};

/** The OpenAPI document the server generates from its own schemas; it changes only on deploy. */
export function useOpenApiDocument() {
  return useQuery({
    queryKey: enterpriseKeys.openapi,
    queryFn: () => apiGet<OpenApiDocument>(OPENAPI_URL),
    staleTime: Infinity,
  });
}

/**
 * The main site's origin (where accounts, keys and the contact desk live): the server's
 * configured PUBLIC_URL, which the OpenAPI document names as its server. Until it has loaded
 * (or if it names no absolute URL), '' — links relative to this site, since the same server
 * answers both; not window.location, so the server-rendered markup matches the first client render.
 */
export function useMainSiteOrigin(): string {
  const { data } = useOpenApiDocument();
  if (!data) return '';
  try {
    return new URL(apiServerUrl(data, '')).origin;
  } catch {
    return '';
  }
}
