/**
 * The page's stylesheet and script, read once at start and served by our own route under a name
 * that carries a hash of their content (`checkout.<hash>.css`), so they can be cached for a year:
 * a new version has a new name.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface CheckoutAsset {
  name: string;
  contentType: string;
  body: Buffer;
}

function load(file: string, extension: string, contentType: string): CheckoutAsset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { name: `checkout.${hash}.${extension}`, contentType, body };
}

export interface CheckoutAssets {
  css: CheckoutAsset;
  js: CheckoutAsset;
  /** The asset by its hashed name. */
  byName: Map<string, CheckoutAsset>;
}

export function loadCheckoutAssets(): CheckoutAssets {
  const css = load('checkout.css', 'css', 'text/css; charset=utf-8');
  const js = load('checkout.js', 'js', 'text/javascript; charset=utf-8');
  return { css, js, byName: new Map([css, js].map((asset) => [asset.name, asset])) };
}

export const assetPath = (asset: CheckoutAsset) => `/checkout/assets/${asset.name}`;
