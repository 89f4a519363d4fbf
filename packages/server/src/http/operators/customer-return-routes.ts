/**
 * Where an operator's payment page sends the customer back, under /api/v1/operators/ (no API key:
 * the customer's browser comes here). The return itself proves nothing of the outcome: with the
 * proof its session was given (operators/return-proof.ts), the payment is refreshed from its
 * operator and the customer is sent (303) to the payment's checkout page, which shows where it
 * stands. The page's address is the checkout token, a secret: a wrong proof or an unknown payment
 * is a 404 page, and the token is never given without the proof.
 *
 * - `GET /wave/checkout-return/:id/:outcome/:proof` (outcome: success or error, alike)
 * - `GET /fedapay/checkout-return/:id/:proof`
 * - `GET /orange-money/return/:id/:proof` (paid or cancelled, alike)
 *
 * The same addresses without a proof are those of sessions made before return URLs carried one:
 * the customer gets a page that tells nothing of the payment (the same for any id, known or not),
 * and nothing is asked of the operator; its webhook or the status checks settle the payment.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Payment } from '../../core/payments/payment.js';
import type { PaymentService } from '../../core/payments/payment-service.js';
import { looksLikeId } from '../../core/shared/ids.js';
import { returnProofMatches } from '../../operators/return-proof.js';
import { assetPath, loadCheckoutAssets } from '../checkout/checkout-assets.js';
import { renderMessagePage } from '../checkout/checkout-page.js';
import { pickLanguage, texts } from '../checkout/checkout-texts.js';
import { pageSecurityHeaders } from '../shared/page-security.js';

export interface CustomerReturnOptions {
  payments: Pick<PaymentService, 'refreshOnOperatorHint' | 'findForReturn'>;
  /** Where the customer is sent: the payment's checkout page under this origin. */
  publicUrl: string;
  /** The server's secret: it made the proof in the return URLs. */
  serverSecret: () => string;
}

/** The families whose pages send customers back, by the path under /api/v1/operators/. */
const returnPaths = [
  { family: 'wave', path: '/wave/checkout-return/:id/:outcome', outcomes: ['success', 'error'] },
  { family: 'fedapay', path: '/fedapay/checkout-return/:id' },
  { family: 'orange-money', path: '/orange-money/return/:id' },
] as const;

interface ReturnParams {
  id: string;
  outcome?: string;
  proof?: string;
}

export async function customerReturnRoutes(app: FastifyInstance, options: CustomerReturnOptions): Promise<void> {
  const assets = loadCheckoutAssets();
  const assetUrls = { css: assetPath(assets.css), js: assetPath(assets.js) };
  const checkoutBase = `${options.publicUrl.replace(/\/+$/, '')}/checkout`;

  const page = (request: FastifyRequest, reply: FastifyReply, status: 200 | 404) => {
    const lang = pickLanguage((request.query as Record<string, unknown> | undefined)?.lang, request.headers['accept-language']);
    const t = texts[lang];
    pageSecurityHeaders(reply);
    const [title, text] = status === 404 ? [t.errors.notFoundTitle, t.errors.notFound] : [t.returnedTitle, t.returnedText];
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(renderMessagePage({ lang, t, assets: assetUrls }, title, text));
  };

  for (const { family, path, ...rest } of returnPaths) {
    const outcomes: readonly string[] | undefined = 'outcomes' in rest ? rest.outcomes : undefined;
    const shaped = (params: ReturnParams) => looksLikeId(params.id) && (outcomes === undefined || outcomes.includes(params.outcome ?? ''));

    app.get<{ Params: ReturnParams }>(`${path}/:proof`, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const { id, proof } = request.params;
      if (!shaped(request.params) || !returnProofMatches(options.serverSecret(), family, id, proof ?? '')) return page(request, reply, 404);
      const payment: Payment | undefined = await options.payments.refreshOnOperatorHint(id).catch((error: unknown) => {
        // The operator down: the page still shows the payment as we know it, and keeps watching it.
        request.log.warn({ err: error, operator_family: family }, 'refreshing from the operator on the customer’s return failed');
        return options.payments.findForReturn(id);
      });
      if (!payment?.checkoutToken) return page(request, reply, 404);
      return reply.redirect(`${checkoutBase}/${payment.checkoutToken}`, 303);
    });

    app.get<{ Params: ReturnParams }>(path, { config: { public: true }, schema: { hide: true } }, async (request, reply) =>
      page(request, reply, shaped(request.params) ? 200 : 404),
    );
  }
}
