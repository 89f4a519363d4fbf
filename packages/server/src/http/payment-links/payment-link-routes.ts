import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import QRCode from 'qrcode';
import type { PaymentLinkView } from '../../core/payment-links/payment-link.js';
import type { PaymentLinkService } from '../../core/payment-links/payment-link-service.js';
import { checkReturnUrl } from '../contracts/collect-2026-06/return-url.js';
import { principalOf } from '../plugins/authentication.js';
import { recordedRequest } from '../plugins/idempotency.js';
import { errorResponses } from '../shared/error-schemas.js';
import { instantFilter } from '../shared/list-filters.js';
import { listRoute } from '../shared/list-route.js';
import { paymentLinkToWire, paymentLinkUrl } from './payment-link-mapper.js';
import { CreatePaymentLinkBody, ListPaymentLinksQuery, PaymentLinkList, PaymentLinkObject, PaymentLinkParams, QrQuery, UpdatePaymentLinkBody } from './payment-link-schemas.js';

export interface PaymentLinkRoutesOptions {
  paymentLinks: PaymentLinkService;
  publicUrl: string;
  /** Development server: test links may give an http:// return_url. */
  dev?: boolean;
}

const tags = ['payment_links'];

/** Error correction M (15 %) and a 4-module quiet zone: scans from a printed sheet or a phone screen. */
const qrOptions = (size: number) => ({ errorCorrectionLevel: 'M' as const, margin: 4, width: size });

/** Payment links of the key's merchant and environment (docs/payment-links.md), and their QR codes. */
export const paymentLinkRoutes: FastifyPluginAsyncTypebox<PaymentLinkRoutesOptions> = async (app, { paymentLinks, publicUrl, dev = false }) => {
  const toWire = (view: PaymentLinkView) => paymentLinkToWire(view, publicUrl);

  app.post(
    '/payment-links',
    {
      config: { scope: 'payment_links:write', idempotency: { required: false, recorded: true }, rateLimitBucket: 'manage' },
      schema: {
        tags,
        operationId: 'createPaymentLink',
        summary: 'Create a payment link',
        description:
          'A public page (`url`) where customers pay a fixed amount (`amount_minor`) or an amount they type within bounds, through the hosted checkout. Emits payment_link.created. An Idempotency-Key header is honoured when sent.',
        body: CreatePaymentLinkBody,
        response: { 201: PaymentLinkObject, ...errorResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const principal = principalOf(request);
      checkReturnUrl(body.return_url, principal.environment, dev);
      const recorded = recordedRequest(request, reply, (view: PaymentLinkView) => ({ status: 201, body: toWire(view) }));
      const view = await paymentLinks.create(
        principal,
        {
          amountMinor: body.amount_minor,
          minAmountMinor: body.min_amount_minor,
          maxAmountMinor: body.max_amount_minor,
          currency: body.currency,
          country: body.country,
          countries: body.countries,
          description: body.description,
          reusable: body.reusable,
          maxPayments: body.max_payments,
          expiresAt: body.expires_at,
          returnUrl: body.return_url,
          metadata: body.metadata,
        },
        recorded,
      );
      return recorded.send(view);
    },
  );

  app.get(
    '/payment-links',
    ...listRoute({
      list: 'payment_links',
      scope: 'payment_links:read',
      tags,
      operationId: 'listPaymentLinks',
      summary: 'List payment links, newest first',
      description: 'Cursor pagination (limit, starting_after or ending_before, has_more). Filters combine: active, created_gte / created_lte.',
      querystring: ListPaymentLinksQuery,
      response: PaymentLinkList,
      filters: (query) => ({ active: query.active, createdGte: instantFilter(query.created_gte, 'created_gte'), createdLte: instantFilter(query.created_lte, 'created_lte') }),
      read: (principal, filters, page) => paymentLinks.list(principal, filters, page),
      toWire,
    }),
  );

  app.get(
    '/payment-links/:id',
    {
      config: { scope: 'payment_links:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getPaymentLink',
        summary: 'A payment link (deactivated ones too)',
        params: PaymentLinkParams,
        response: { 200: PaymentLinkObject, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => toWire(await paymentLinks.get(principalOf(request), request.params.id)),
  );

  app.patch(
    '/payment-links/:id',
    {
      config: { scope: 'payment_links:write', rateLimitBucket: 'manage' },
      schema: {
        tags,
        operationId: 'updatePaymentLink',
        summary: 'Change a payment link',
        description:
          'Only the fields sent change: description, max_payments, expires_at, return_url, metadata. Emits payment_link.updated. A deactivated link cannot be changed (409 payment_link_inactive).',
        params: PaymentLinkParams,
        body: UpdatePaymentLinkBody,
        response: { 200: PaymentLinkObject, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const body = request.body;
      const principal = principalOf(request);
      if (body.return_url !== undefined && body.return_url !== null) checkReturnUrl(body.return_url, principal.environment, dev);
      const view = await paymentLinks.update(principal, request.params.id, {
        description: body.description,
        maxPayments: body.max_payments,
        expiresAt: body.expires_at,
        returnUrl: body.return_url,
        metadata: body.metadata,
      });
      return toWire(view);
    },
  );

  app.post(
    '/payment-links/:id/deactivate',
    {
      config: { scope: 'payment_links:write', idempotency: { required: false, recorded: true }, rateLimitBucket: 'manage' },
      schema: {
        tags,
        operationId: 'deactivatePaymentLink',
        summary: 'Deactivate a payment link',
        description:
          'The page takes no payment from then on (payments already started finish as usual); the link stays readable with `status: inactive`. Emits payment_link.deactivated. Deactivating it again answers it as it is.',
        params: PaymentLinkParams,
        response: { 200: PaymentLinkObject, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const recorded = recordedRequest(request, reply, (view: PaymentLinkView) => ({ status: 200, body: toWire(view) }));
      return recorded.send(await paymentLinks.deactivate(principalOf(request), request.params.id));
    },
  );

  app.get(
    '/payment-links/:id/qr.svg',
    {
      config: { scope: 'payment_links:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getPaymentLinkQrSvg',
        summary: 'The link’s QR code, as SVG (for printing at any size)',
        params: PaymentLinkParams,
        querystring: QrQuery,
        response: {
          200: {
            description: 'An SVG image of the QR code of the link’s `url`.',
            content: {
              'image/svg+xml': {
                schema: { type: 'string' },
                example: '<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 41 41" shape-rendering="crispEdges">…</svg>',
              },
            },
          },
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const view = await paymentLinks.get(principalOf(request), request.params.id);
      const svg = await QRCode.toString(paymentLinkUrl(publicUrl, view.link.slug), { ...qrOptions(request.query.size ?? 1024), type: 'svg' });
      return reply.type('image/svg+xml').header('cache-control', 'no-store').send(svg);
    },
  );

  app.get(
    '/payment-links/:id/qr.png',
    {
      config: { scope: 'payment_links:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getPaymentLinkQrPng',
        summary: 'The link’s QR code, as PNG (1024 px by default: about 8.7 cm at 300 dpi)',
        params: PaymentLinkParams,
        querystring: QrQuery,
        response: {
          200: {
            description: 'A PNG image of the QR code of the link’s `url`.',
            content: { 'image/png': { schema: { type: 'string', format: 'binary' }, example: '(the PNG file’s bytes)' } },
          },
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const view = await paymentLinks.get(principalOf(request), request.params.id);
      const png = await QRCode.toBuffer(paymentLinkUrl(publicUrl, view.link.slug), { ...qrOptions(request.query.size ?? 1024), type: 'png' });
      // The schema types this answer as a string (OpenAPI's binary format); the bytes go out as they are.
      return reply
        .type('image/png')
        .header('cache-control', 'no-store')
        .send(png as unknown as string);
    },
  );
};
