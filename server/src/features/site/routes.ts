import { SiteFigures } from '@common/contract/site';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import { siteVariantFor } from '../../lib/site-variant';
import { FEED_PATH, robotsTxt, rssFeed, siteOrigin, sitemapXml } from './service';

const CACHE = 'public, max-age=3600';

/** robots.txt, sitemap.xml (per site variant) and the blog's RSS feed (main site only). */
export async function siteRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.ctx;
  const where = (request: FastifyRequest) => {
    const variant = siteVariantFor(request.host, config.enterpriseHostMatch);
    return { variant, origin: siteOrigin(config, request, variant) };
  };
  const send = (reply: FastifyReply, type: string, body: string) => reply.header('cache-control', CACHE).type(type).send(body);

  app.get('/robots.txt', async (request, reply) => {
    const { variant, origin } = where(request);
    return send(reply, 'text/plain; charset=utf-8', robotsTxt(variant, origin));
  });

  app.get('/sitemap.xml', async (request, reply) => {
    const { variant, origin } = where(request);
    return send(reply, 'application/xml; charset=utf-8', sitemapXml(variant, origin));
  });

  app.get(FEED_PATH, async (request, reply) => {
    const { variant, origin } = where(request);
    if (variant !== 'main') throw new AppError('not_found', 'The blog is on the main site.');
    return send(reply, 'application/rss+xml; charset=utf-8', rssFeed(origin));
  });
}

/**
 * GET /api/site/figures: the landing page's live figures, for a page the browser renders itself
 * (a server-rendered landing page carries them inline). Public: they are on the page anyway.
 */
export async function siteFiguresRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/site/figures', { schema: { response: { 200: SiteFigures } } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=600');
    return app.siteFigures.get();
  });
}
