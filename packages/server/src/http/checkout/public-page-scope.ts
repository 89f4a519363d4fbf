import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/shared/clock.js';
import { MemoryRateLimitCounter, RedisRateLimitCounter, type RateLimitCounter } from '../plugins/rate-limit-store.js';
import { assetPath, loadCheckoutAssets } from './checkout-assets.js';
import type { PageContext } from './checkout-page.js';
import { pickLanguage, texts } from './checkout-texts.js';

/** What the customer-facing pages (the checkout page, a payment link's page) share in their scope. */
export interface PublicPageScope {
  /** The checkout's stylesheet and script (content-hashed). */
  assets: ReturnType<typeof loadCheckoutAssets>;
  /** The page's origin, for the cross-site check of its forms. */
  publicOrigin: string;
  /** The rate limits of the scope's forms: in Redis when REDIS_URL is set (shared by every process), else in memory. */
  counter: RateLimitCounter;
  /** The language (form field, query, Accept-Language), its texts and the page's assets. */
  pageContext(request: FastifyRequest): PageContext;
}

/**
 * Sets up a public page's scope: urlencoded forms (in this scope only; the API stays JSON-only),
 * the checkout's assets, and a rate-limit counter under `keyPrefix`, closed with the app.
 */
export async function publicPageScope(
  app: FastifyInstance,
  options: { publicUrl: string; redisUrl?: string; clock?: Clock },
  names: { keyPrefix: string; what: string },
): Promise<PublicPageScope> {
  await app.register(formBody, { bodyLimit: 4096 });
  const assets = loadCheckoutAssets();
  const assetUrls = { css: assetPath(assets.css), js: assetPath(assets.js) };
  const counter: RateLimitCounter = options.redisUrl
    ? new RedisRateLimitCounter({
        url: options.redisUrl,
        keyPrefix: names.keyPrefix,
        onConnectionError: (error) => app.log.warn({ err: error }, `${names.what} rate limits: Redis unreachable`),
        onReady: () => {},
      })
    : new MemoryRateLimitCounter(options.clock);
  app.addHook('onClose', async () => counter.close());
  return {
    assets,
    publicOrigin: new URL(options.publicUrl).origin,
    counter,
    pageContext(request) {
      const lang = pickLanguage(field(request.body, 'lang') || (request.query as Record<string, unknown> | undefined)?.lang, request.headers['accept-language']);
      return { lang, t: texts[lang], assets: assetUrls };
    },
  };
}

function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
