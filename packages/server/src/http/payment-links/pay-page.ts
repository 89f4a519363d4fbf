/**
 * The payment-link page's HTML (`/pay/<slug>`), rendered on the server with the checkout page's
 * layout, stylesheet and script: one form (amount when open, country when several, operator, phone)
 * that works without JavaScript. Every interpolated value goes through `esc`.
 */
import type { CountryCode } from '../../core/catalog/operator-catalog.js';
import type { PaymentLinkPage } from '../../core/payment-links/payment-link-service.js';
import { formatAmount, phoneFormats } from '../checkout/checkout-format.js';
import { documentOf, esc, type PageContext } from '../checkout/checkout-page.js';
import type { LinkTexts } from './pay-page-texts.js';

export interface LinkPageContext extends PageContext {
  slug: string;
  csrf: string;
  lt: LinkTexts;
}

/** An operator the customer may choose, in the country it collects in. */
export interface LinkOperator {
  slug: string;
  label: string;
  requiresOtp: boolean;
  country: CountryCode;
}

/** What the page shows besides the link: its operators and, for an open amount, its bounds (centimes). */
export interface LinkPageView {
  page: PaymentLinkPage;
  operators: LinkOperator[];
  bounds: { min: number; max: number } | null;
}

/** What a refused form brings back: the message, the field, what the customer typed. */
export interface LinkFormProblem {
  message: string;
  field?: 'amount' | 'country' | 'operator' | 'phone';
  amount?: string;
  country?: string;
  operator?: string;
  phone?: string;
}

const base = (slug: string) => `/pay/${encodeURIComponent(slug)}`;

function summary(ctx: LinkPageContext, view: LinkPageView): string {
  const { t } = ctx;
  const { link, merchant } = view.page;
  return [
    link.environment === 'test' ? `<p class="test-banner" role="note">${esc(t.testBanner)}</p>` : '',
    '<header class="summary">',
    `<p class="merchant">${esc(t.payTo)} <strong>${esc(merchant.name)}</strong></p>`,
    `<p class="description">${esc(link.description)}</p>`,
    link.amountMinor !== null ? `<p class="amount"><span class="visually-hidden">${esc(t.amount)} : </span>${esc(formatAmount(link.amountMinor, link.currency))}</p>` : '',
    '</header>',
  ].join('');
}

function footer(ctx: LinkPageContext): string {
  const other = ctx.lang === 'fr' ? 'en' : 'fr';
  return [
    '<footer>',
    `<a href="${esc(`${base(ctx.slug)}?lang=${other}`)}" hreflang="${other}" lang="${other}">${esc(ctx.t.switchLabel)}</a>`,
    `<span>${esc(ctx.t.poweredBy)}</span>`,
    '</footer>',
  ].join('');
}

/** The link's page with its form (an active link), or what a refused form brings back. */
export function renderLinkPage(ctx: LinkPageContext, view: LinkPageView, problem?: LinkFormProblem): string {
  const { t, lt, lang } = ctx;
  const { link } = view.page;
  const several = link.countries.length > 1;
  const country = (problem?.country ?? (several ? undefined : link.countries[0])) as CountryCode | undefined;
  const format = country ? phoneFormats[country] : undefined;
  const chosenOperator = problem?.operator ?? '';
  const operatorItems = [
    `<li><input type="radio" name="operator" id="op-auto" value=""${chosenOperator === '' ? ' checked' : ''}><label for="op-auto">${esc(lt.operatorAuto)}</label></li>`,
    ...view.operators.map((operator) => {
      const id = `op-${operator.slug}`;
      const where = several ? ` (${t.countries[operator.country]})` : '';
      const note = operator.requiresOtp ? ` <small>(${esc(t.needsCode)})</small>` : '';
      const checked = operator.slug === chosenOperator ? ' checked' : '';
      return `<li><input type="radio" name="operator" id="${esc(id)}" value="${esc(operator.slug)}"${checked}><label for="${esc(id)}">${esc(operator.label + where)}${note}</label></li>`;
    }),
  ].join('');
  const invalid = (field: LinkFormProblem['field']) => (problem?.field === field ? ' aria-invalid="true"' : '');
  const amountField =
    link.amountMinor === null && view.bounds
      ? [
          `<label for="amount">${esc(lt.amountLabel)}</label>`,
          `<input type="number" id="amount" name="amount" inputmode="numeric" required min="${view.bounds.min / 100}" max="${view.bounds.max / 100}" step="1" aria-describedby="amount-hint" value="${esc(problem?.amount ?? '')}"${invalid('amount')}>`,
          `<p class="hint" id="amount-hint">${esc(lt.amountHint(formatAmount(view.bounds.min, link.currency), formatAmount(view.bounds.max, link.currency)))}</p>`,
        ].join('')
      : '';
  const countryField = several
    ? [
        `<label for="country">${esc(lt.countryLabel)}</label>`,
        `<select id="country" name="country" required${invalid('country')}>`,
        `<option value="">—</option>`,
        ...link.countries.map((code) => `<option value="${code}"${code === country ? ' selected' : ''}>${esc(t.countries[code])}</option>`),
        '</select>',
      ].join('')
    : '';
  const phoneData = format
    ? ` data-pattern="${esc(format.pattern)}" data-digits="${format.digits}" data-message="${esc(t.errors.invalidPhone(t.countries[country!], format.digits, format.example))}"`
    : '';
  const button = link.amountMinor !== null ? t.pay(formatAmount(link.amountMinor, link.currency)) : lt.continue;
  const form = [
    `<form method="post" action="${esc(base(ctx.slug))}" class="pay-form" novalidate>`,
    `<input type="hidden" name="csrf" value="${esc(ctx.csrf)}"><input type="hidden" name="lang" value="${lang}">`,
    problem ? `<p class="notice" role="alert" id="form-error">${esc(problem.message)}</p>` : '',
    amountField,
    countryField,
    '<label for="phone">',
    esc(t.phoneLabel),
    '</label>',
    `<input type="tel" id="phone" name="phone" inputmode="tel" autocomplete="tel-national" required maxlength="32" aria-describedby="phone-hint" value="${esc(problem?.phone ?? '')}"${phoneData}${invalid('phone')}>`,
    format ? `<p class="hint" id="phone-hint">${esc(t.phoneHint(format.digits, format.example))}</p>` : '',
    `<fieldset${invalid('operator')}><legend>${esc(t.operatorLegend)}</legend><p class="hint">${esc(lt.operatorHint)}</p><ul class="operators">${operatorItems}</ul></fieldset>`,
    `<button type="submit">${esc(button)}</button>`,
    link.environment === 'test' ? `<p class="hint test-hint">${esc(t.testHintPay)}</p>` : '',
    '</form>',
  ].join('');
  const body = [summary(ctx, view), `<main id="flow" data-state="link">`, form, '</main>', footer(ctx)].join('');
  return documentOf(ctx, `<title>${esc(t.pageTitle)} · ${esc(view.page.merchant.name)}</title>`, body);
}

/** A link that takes no payment: what it was, and why (deactivated, expired, used up); no form. */
export function renderClosedLinkPage(ctx: LinkPageContext, view: LinkPageView): string {
  const { lt } = ctx;
  const status = view.page.status === 'active' ? 'inactive' : view.page.status;
  const body = [
    summary(ctx, view),
    `<main id="flow" data-state="${esc(status)}">`,
    `<h1>${esc(lt.closedTitle)}</h1>`,
    `<p class="notice" role="alert">${esc(lt.closed[status])}</p>`,
    '</main>',
    footer(ctx),
  ].join('');
  return documentOf(ctx, `<title>${esc(lt.closedTitle)} · ${esc(view.page.merchant.name)}</title>`, body);
}
