import type { Services } from './services.js';

export const DEMO_MERCHANT_NAME = 'Demo Merchant';

/**
 * On an empty database, creates a demo merchant with one test key so `npm start` is usable at once.
 * Returns the key secret the first time only: it is stored hashed and cannot be shown again.
 */
export async function ensureDemoMerchant(services: Services): Promise<{ merchantId: string; testKey: string } | undefined> {
  if ((await services.merchants.countMerchants()) > 0) return undefined;
  const { merchant, keys } = await services.merchants.createMerchant({
    name: DEMO_MERCHANT_NAME,
    kycStatus: 'validated',
    keyEnvironments: ['test'],
    actor: 'demo-setup',
  });
  return { merchantId: merchant.id, testKey: keys[0]!.secret };
}
