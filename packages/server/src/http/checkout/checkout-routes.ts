import type { FastifyPluginAsync } from 'fastify';
import type { PaymentStore } from '../../core/payments/payment-store.js';

export interface CheckoutRoutesOptions {
  payments: PaymentStore;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The hosted checkout page that `checkout_url` points at. For now a plain page showing what is
 * being paid; the interactive page (operator choice, phone entry) comes with its own issue.
 */
export const checkoutRoutes: FastifyPluginAsync<CheckoutRoutesOptions> = async (app, { payments }) => {
  app.get<{ Params: { id: string } }>('/checkout/:id', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const payment = await payments.findForCheckout(request.params.id);
    reply.type('text/html; charset=utf-8');
    if (!payment) return reply.status(404).send('<!doctype html><title>Akwe checkout</title><p>This checkout does not exist.</p>');
    const amount = new Intl.NumberFormat('fr-FR').format(Math.floor(payment.amountMinor / 100));
    return [
      '<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Akwe checkout</title></head><body>',
      `<h1>${amount} ${escape(payment.currency)}</h1>`,
      payment.description ? `<p>${escape(payment.description)}</p>` : '',
      `<p>Référence : ${escape(payment.reference)} — statut : ${escape(payment.status)}</p>`,
      payment.environment === 'test' ? '<p><strong>Mode test</strong> : aucun argent réel.</p>' : '',
      '</body></html>',
    ].join('');
  });
};
