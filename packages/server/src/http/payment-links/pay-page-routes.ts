/**
 * The public page of a payment link (docs/payment-links.md), outside /api/v1, without an API key,
 * hidden from the OpenAPI document. Registered with the prefix /pay.
 *
 *   GET  /pay/:slug   the page: merchant, what is sold, amount (or a field within bounds), phone, operator
 *   POST /pay/:slug   form -> a hosted payment of the link, paid with that phone and operator
 *                     -> 303 to its checkout page (or the operator's own page), where the flow goes on
 *
 * A link that is deactivated, expired or used up says so (410) and its form creates nothing; a
 * refused form comes back with its message (422). Same headers, form token, cross-site check and
 * rate limits as the checkout page; French first, English on the browser's preference or the switch.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { CheckoutService } from '../../core/checkout/checkout-service.js';
import type { PaymentLinkPage, PaymentLinkService } from '../../core/payment-links/payment-link-service.js';
import type { CatalogCountry, CountryCode, OperatorCatalog } from '../../core/catalog/operator-catalog.js';
import { predictForE164 } from '../../core/phones/operator-prediction.js';
import { normalizePhone } from '../../core/phones/phone-number.js';
import type { Clock } from '../../core/shared/clock.js';
import { toAkweError } from '../shared/to-akwe-error.js';
import { formatAmount, phoneFormats } from '../checkout/checkout-format.js';
import { renderMessagePage } from '../checkout/checkout-page.js';
import { formToken, formTokenMatches, isCrossSite, overLimit, securityHeaders, type CheckoutLimits } from '../checkout/checkout-security.js';
import { publicPageScope } from '../checkout/public-page-scope.js';
import { renderClosedLinkPage, renderLinkPage, type LinkFormProblem, type LinkPageContext, type LinkPageView } from './pay-page.js';
import { linkTexts } from './pay-page-texts.js';

export interface PayPageRoutesOptions {
  paymentLinks: PaymentLinkService;
  checkout: CheckoutService;
  catalog: OperatorCatalog;
  /** The server's secret (AKWE_SECRET), keying the form tokens. */
  secret: () => string;
  publicUrl: string;
  /** The checkout page's limits, counted apart (per link and per address). */
  limits: CheckoutLimits;
  redisUrl?: string;
  clock?: Clock;
}

interface SlugParams {
  slug: string;
}

const slugParams = {
  type: 'object',
  properties: { slug: { type: 'string', minLength: 1, maxLength: 128 } },
  required: ['slug'],
} as const;

const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
};

/** The form token of a link's page: bound to the link, distinct from any checkout's. */
const linkFormSubject = (slug: string) => `payment-link\0${slug}`;

export const payPageRoutes: FastifyPluginAsync<PayPageRoutesOptions> = async (app, options) => {
  const { paymentLinks, checkout, catalog } = options;
  const { publicOrigin, counter, pageContext } = await publicPageScope(app, options, { keyPrefix: 'akwe:pay-link:', what: 'payment link' });
  const linkContext = (request: FastifyRequest, slug: string): LinkPageContext => {
    const ctx = pageContext(request);
    return { ...ctx, slug, csrf: formToken(options.secret(), linkFormSubject(slug)), lt: linkTexts[ctx.lang] };
  };
  const html = (reply: FastifyReply, status: number, body: string) => {
    securityHeaders(reply);
    return reply.status(status).type('text/html; charset=utf-8').send(body);
  };
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = pageContext(request);
    return html(reply, 404, renderMessagePage(ctx, ctx.t.errors.notFoundTitle, ctx.t.errors.notFound));
  };

  /** The countries' operators that collect the link's amount (every one, for an open amount), in catalog order. */
  const viewOf = (page: PaymentLinkPage): LinkPageView => {
    const { link } = page;
    const countries = link.countries.map((code) => catalog.country(code)).filter((c): c is CatalogCountry => c !== undefined);
    const operators = countries.flatMap((country) =>
      country.operators
        .filter((o) => o.collect.supported && (link.amountMinor === null || (link.amountMinor >= o.collect.minAmountMinor && link.amountMinor <= o.collect.maxAmountMinor)))
        .map((o) => ({ slug: o.slug, label: o.label, requiresOtp: o.requiresOtp, country: country.code })),
    );
    if (link.amountMinor !== null) return { page, operators, bounds: null };
    // Several countries: the amounts every one of them takes.
    const each = countries.map((country) => paymentLinks.openBounds(link, country));
    return { page, operators, bounds: { min: Math.max(...each.map((b) => b.min)), max: Math.min(...each.map((b) => b.max)) } };
  };
  const page = (request: FastifyRequest, reply: FastifyReply, status: number, view: LinkPageView, problem?: LinkFormProblem) => {
    const ctx = linkContext(request, view.page.link.slug);
    if (view.page.status !== 'active') return html(reply, 410, renderClosedLinkPage(ctx, view));
    return html(reply, status, renderLinkPage(ctx, view, problem));
  };

  app.setErrorHandler(async (error, request, reply) => {
    const known = toAkweError(error);
    if (known.status >= 500) request.log.error({ err: error }, 'payment link page failed');
    const ctx = pageContext(request);
    const message = known.status === 404 ? ctx.t.errors.notFound : ctx.t.errors.generic;
    return html(reply, known.status, renderMessagePage(ctx, known.status === 404 ? ctx.t.errors.notFoundTitle : ctx.t.pageTitle, message));
  });
  app.setNotFoundHandler((request, reply) => notFound(request, reply));

  app.get<{ Params: SlugParams }>('/:slug', { config: { public: true }, schema: { hide: true, params: slugParams } }, async (request, reply) => {
    const opened = await paymentLinks.open(request.params.slug);
    return opened ? page(request, reply, 200, viewOf(opened)) : notFound(request, reply);
  });

  app.post<{ Params: SlugParams }>('/:slug', { config: { public: true }, schema: { hide: true, params: slugParams } }, async (request, reply) => {
    const { slug } = request.params;
    const ctx = linkContext(request, slug);
    const { t, lt } = ctx;
    const wait = await overLimit(counter, options.limits, `link:${slug}`, request.ip, (error) =>
      request.log.warn({ err: error }, 'payment link rate limits unavailable; action let through'),
    );
    if (wait !== undefined) {
      reply.header('retry-after', String(wait));
      return html(reply, 429, renderMessagePage(ctx, t.pageTitle, t.errors.tooMany(wait), { href: `/pay/${encodeURIComponent(slug)}?lang=${ctx.lang}`, label: t.refresh }));
    }
    const opened = await paymentLinks.open(slug);
    if (!opened) return notFound(request, reply);
    if (isCrossSite(request, publicOrigin) || !formTokenMatches(options.secret(), linkFormSubject(slug), field(request.body, 'csrf'))) {
      return html(reply, 403, renderMessagePage(ctx, t.pageTitle, t.errors.forbidden, { href: `/pay/${encodeURIComponent(slug)}?lang=${ctx.lang}`, label: t.refresh }));
    }
    const view = viewOf(opened);
    const { link } = opened;
    if (opened.status !== 'active') return page(request, reply, 410, view);

    const typed = {
      amount: field(request.body, 'amount'),
      country: field(request.body, 'country'),
      operator: field(request.body, 'operator'),
      phone: field(request.body, 'phone'),
    };
    const refuse = (problem: Omit<LinkFormProblem, keyof typeof typed>) => page(request, reply, 422, view, { ...typed, ...problem });

    let amountMinor: number | undefined;
    if (link.amountMinor === null && view.bounds) {
      const bounds = view.bounds;
      const outOfBounds = () => refuse({ message: lt.amountOutOfBounds(formatAmount(bounds.min, link.currency), formatAmount(bounds.max, link.currency)), field: 'amount' });
      if (!/^[0-9]{1,12}$/.test(typed.amount.replace(/[\s\u00a0\u202f]/g, ''))) return outOfBounds();
      amountMinor = Number(typed.amount.replace(/[\s\u00a0\u202f]/g, '')) * 100;
      if (amountMinor < bounds.min || amountMinor > bounds.max) return outOfBounds();
    }
    const countryCode = (link.countries.length === 1 ? link.countries[0] : typed.country) as CountryCode;
    if (!(link.countries as string[]).includes(countryCode)) return refuse({ message: lt.chooseCountry, field: 'country' });
    const phone = normalizePhone(countryCode, typed.phone);
    if (!phone.ok) {
      const format = phoneFormats[countryCode];
      return refuse({ message: t.errors.invalidPhone(t.countries[countryCode], format.digits, format.example), field: 'phone' });
    }
    const collecting = view.operators.filter((o) => o.country === countryCode);
    // No operator chosen: the one the number was issued to, when it collects here (the customer may change it).
    const predicted = predictForE164(catalog.country(countryCode)!, phone.e164).operator;
    const operator = typed.operator !== '' ? typed.operator : (collecting.find((o) => o.slug === predicted)?.slug ?? '');
    if (!collecting.some((o) => o.slug === operator)) {
      return refuse({ message: typed.operator === '' ? lt.unknownOperator : t.errors.chooseOperator, field: 'operator' });
    }

    let created;
    try {
      created = await paymentLinks.pay(slug, { amountMinor, country: countryCode });
    } catch (error) {
      const known = toAkweError(error);
      if (known.code === 'payment_link_inactive') return page(request, reply, 410, viewOf((await paymentLinks.open(slug)) ?? opened));
      // Every use is held by a payment under way (docs/decisions.md, "Payment link uses"): nothing was written.
      if (known.code === 'payment_link_in_use') return page(request, reply, 409, view, { ...typed, message: lt.inUse });
      if (known.code === 'account_inactive' || known.code === 'operator_unavailable') return refuse({ message: t.errors.unavailable });
      if (known.status < 500) return refuse({ message: t.errors.generic });
      throw error;
    }
    // The payment exists: from here on the checkout page carries the flow (push, code, operator page, result).
    const token = created.payment.checkoutToken!;
    securityHeaders(reply);
    try {
      const paid = await checkout.pay(token, { phone: phone.e164, operator });
      const onOperatorPage = paid.state === 'waiting' ? paid.payment.operatorRedirectUrl : undefined;
      if (onOperatorPage) return reply.redirect(onOperatorPage, 303);
    } catch (error) {
      // Refused there (operator down...): the checkout page shows the payment, ready to try again.
      request.log.warn({ err: error }, 'payment link: paying the new checkout failed; the customer continues on its page');
    }
    return reply.redirect(`/checkout/${encodeURIComponent(token)}?lang=${ctx.lang}`, 303);
  });
};
