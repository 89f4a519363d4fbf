/**
 * The hosted checkout page that `checkout_url` points at (docs/checkout.md): the customer's side of
 * a hosted payment, outside /api/v1, without an API key, hidden from the OpenAPI document.
 * Registered with the prefix /checkout (its own not-found page and error handler).
 *
 *   GET  /checkout/:token            the page (state: choose, waiting, code, or final)
 *   GET  /checkout/:token/status     JSON for the page's script: { state, html } of the page's <main>
 *   POST /checkout/:token/pay        form: operator + phone  -> 303 back to the page
 *   POST /checkout/:token/confirm    form: otp               -> 303 back to the page
 *   GET  /checkout/assets/:name      the stylesheet and the script, content-hashed, cached a year
 *
 * Forms follow POST/redirect/GET; a refused form is shown again with its message (422), a form of
 * a payment that is final or expired shows the payment's state (409). Every answer is HTML for
 * people, in French or English.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { CheckoutService, CheckoutView } from '../../core/checkout/checkout-service.js';
import { maxOtpAttempts } from '../../core/payments/payment-input.js';
import { normalizePhone } from '../../core/phones/phone-number.js';
import type { Clock } from '../../core/shared/clock.js';
import { toAkweError } from '../shared/to-akwe-error.js';
import { phoneFormats } from './checkout-format.js';
import { renderCheckoutPage, renderFlow, renderMessagePage, type FlowContext, type FormProblem, type PageContext } from './checkout-page.js';
import { formToken, formTokenMatches, isCrossSite, overLimit, securityHeaders, type CheckoutLimits } from './checkout-security.js';
import { publicPageScope } from './public-page-scope.js';

export interface CheckoutRoutesOptions {
  checkout: CheckoutService;
  /** The server's secret (AKWE_SECRET), keying the form tokens. */
  secret: () => string;
  publicUrl: string;
  limits: CheckoutLimits;
  /** Counters shared through Redis when set (as the API's limits); else this process's memory. */
  redisUrl?: string;
  clock?: Clock;
}

interface TokenParams {
  token: string;
}

type FormFields = Record<string, string | string[] | undefined>;

const field = (body: unknown, name: string): string => {
  const value = (body as FormFields | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

const tokenParams = {
  type: 'object',
  properties: { token: { type: 'string', minLength: 1, maxLength: 128 } },
  required: ['token'],
} as const;

export const checkoutRoutes: FastifyPluginAsync<CheckoutRoutesOptions> = async (app, options) => {
  const { checkout } = options;
  const { assets, publicOrigin, counter, pageContext } = await publicPageScope(app, options, { keyPrefix: 'akwe:checkout:', what: 'checkout' });
  const flowContext = (request: FastifyRequest, token: string): FlowContext => ({ ...pageContext(request), token, csrf: formToken(options.secret(), token) });
  const pageUrl = (token: string, ctx: PageContext) => `/checkout/${encodeURIComponent(token)}?lang=${ctx.lang}`;

  const html = (reply: FastifyReply, status: number, body: string) => {
    securityHeaders(reply);
    return reply.status(status).type('text/html; charset=utf-8').send(body);
  };
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = pageContext(request);
    return html(reply, 404, renderMessagePage(ctx, ctx.t.errors.notFoundTitle, ctx.t.errors.notFound));
  };
  const page = (request: FastifyRequest, reply: FastifyReply, status: number, view: CheckoutView, problem?: FormProblem) =>
    html(reply, status, renderCheckoutPage(flowContext(request, view.payment.checkoutToken!), view, problem));

  // Anything unexpected is still a page for a person, never JSON or a stack.
  app.setErrorHandler(async (error, request, reply) => {
    const known = toAkweError(error);
    if (known.status >= 500) request.log.error({ err: error }, 'checkout page failed');
    const ctx = pageContext(request);
    const message = known.status === 404 ? ctx.t.errors.notFound : ctx.t.errors.generic;
    return html(reply, known.status, renderMessagePage(ctx, known.status === 404 ? ctx.t.errors.notFoundTitle : ctx.t.pageTitle, message));
  });
  app.setNotFoundHandler((request, reply) => notFound(request, reply));

  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { config: { public: true }, schema: { hide: true, params: { type: 'object', properties: { name: { type: 'string', maxLength: 64 } }, required: ['name'] } } },
    async (request, reply) => {
      const asset = assets.byName.get(request.params.name);
      if (!asset) return notFound(request, reply);
      securityHeaders(reply, 'public, max-age=31536000, immutable');
      return reply.type(asset.contentType).send(asset.body);
    },
  );

  app.get<{ Params: TokenParams }>('/:token', { config: { public: true }, schema: { hide: true, params: tokenParams } }, async (request, reply) => {
    const view = await checkout.open(request.params.token);
    return view ? page(request, reply, 200, view) : notFound(request, reply);
  });

  app.get<{ Params: TokenParams }>('/:token/status', { config: { public: true }, schema: { hide: true, params: tokenParams } }, async (request, reply) => {
    const view = await checkout.open(request.params.token);
    securityHeaders(reply);
    if (!view) return reply.status(404).send({ state: 'not_found' });
    return reply.send({ state: view.state, html: renderFlow(flowContext(request, request.params.token), view) });
  });

  /** The checks every form goes through before it is read: the checkout exists, the request is ours, within the limits. */
  const admit = async (request: FastifyRequest<{ Params: TokenParams }>, reply: FastifyReply): Promise<CheckoutView | undefined> => {
    const { token } = request.params;
    const ctx = pageContext(request);
    const wait = await overLimit(counter, options.limits, token, request.ip, (error) => request.log.warn({ err: error }, 'checkout rate limits unavailable; action let through'));
    if (wait !== undefined) {
      reply.header('retry-after', String(wait));
      await html(reply, 429, renderMessagePage(ctx, ctx.t.pageTitle, ctx.t.errors.tooMany(wait), { href: pageUrl(token, ctx), label: ctx.t.refresh }));
      return undefined;
    }
    const view = await checkout.open(token);
    if (!view) {
      await notFound(request, reply);
      return undefined;
    }
    if (isCrossSite(request, publicOrigin) || !formTokenMatches(options.secret(), token, field(request.body, 'csrf'))) {
      await html(reply, 403, renderMessagePage(ctx, ctx.t.pageTitle, ctx.t.errors.forbidden, { href: pageUrl(token, ctx), label: ctx.t.refresh }));
      return undefined;
    }
    return view;
  };

  const backToPage = (request: FastifyRequest, reply: FastifyReply, token: string) => {
    securityHeaders(reply);
    return reply.redirect(pageUrl(token, pageContext(request)), 303);
  };

  app.post<{ Params: TokenParams }>('/:token/pay', { config: { public: true }, schema: { hide: true, params: tokenParams } }, async (request, reply) => {
    const view = await admit(request, reply);
    if (!view) return reply;
    const { t } = pageContext(request);
    const { token } = request.params;
    const operator = field(request.body, 'operator');
    const phone = field(request.body, 'phone').trim();
    if (view.state !== 'choose') return page(request, reply, 409, view, { message: t.errors.notPayable });
    if (!view.operators.some((o) => o.slug === operator)) return page(request, reply, 422, view, { message: t.errors.chooseOperator, field: 'operator', phone });
    const country = view.payment.country;
    if (!normalizePhone(country, phone).ok) {
      const format = phoneFormats[country];
      return page(request, reply, 422, view, { message: t.errors.invalidPhone(t.countries[country], format.digits, format.example), field: 'phone', operator, phone });
    }
    let paid;
    try {
      paid = await checkout.pay(token, { phone, operator });
    } catch (error) {
      return refused(request, reply, token, error, { operator, phone });
    }
    // An operator that collects on its own page (Wave): the customer goes straight there.
    const onOperatorPage = paid.state === 'waiting' ? paid.payment.operatorRedirectUrl : undefined;
    if (onOperatorPage) {
      securityHeaders(reply);
      return reply.redirect(onOperatorPage, 303);
    }
    return backToPage(request, reply, token);
  });

  app.post<{ Params: TokenParams }>('/:token/confirm', { config: { public: true }, schema: { hide: true, params: tokenParams } }, async (request, reply) => {
    const view = await admit(request, reply);
    if (!view) return reply;
    const { t } = pageContext(request);
    const { token } = request.params;
    const otp = field(request.body, 'otp').replace(/\s/g, '');
    if (view.state !== 'code') return page(request, reply, 409, view, { message: t.errors.notPayable });
    if (!/^[0-9]{4,8}$/.test(otp)) return page(request, reply, 422, view, { message: t.errors.invalidCode, field: 'otp' });
    let result;
    try {
      result = await checkout.confirm(token, otp);
    } catch (error) {
      return refused(request, reply, token, error, {});
    }
    if (result.rejected && result.view.state === 'code') {
      return page(request, reply, 422, result.view, { message: t.wrongCode(maxOtpAttempts - result.view.payment.otpAttempts), field: 'otp' });
    }
    return backToPage(request, reply, token);
  });

  /** A refusal from the core: shown on the page, in the customer's words, with the payment's current state. */
  async function refused(request: FastifyRequest, reply: FastifyReply, token: string, error: unknown, typed: { operator?: string; phone?: string }) {
    const known = toAkweError(error);
    const { t } = pageContext(request);
    const view = await checkout.open(token);
    if (!view) return notFound(request, reply);
    if (known.code === 'operator_unavailable') return page(request, reply, 503, view, { message: t.errors.unavailable, ...typed });
    if (known.code === 'invalid_phone') {
      const format = phoneFormats[view.payment.country];
      return page(request, reply, 422, view, { message: t.errors.invalidPhone(t.countries[view.payment.country], format.digits, format.example), field: 'phone', ...typed });
    }
    if (known.status === 409 || known.status === 400 || known.status === 403) return page(request, reply, 409, view, { message: t.errors.notPayable });
    throw error;
  }
};
