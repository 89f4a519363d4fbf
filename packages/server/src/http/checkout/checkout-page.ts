/**
 * The checkout page's HTML, rendered on the server. Every interpolated value goes through `esc`.
 * No inline script or style (the CSP forbids both): behaviour and looks come from the two asset
 * files, and the page works without the script (plain forms, POST then redirect, a refresh link
 * and a <noscript> meta refresh while waiting).
 */
import type { CheckoutState, CheckoutView } from '../../core/checkout/checkout-service.js';
import { formatAmount, maskPhone, paymentCodeUssd, phoneFormats } from './checkout-format.js';
import type { Lang, Texts } from './checkout-texts.js';

/** Escapes text for HTML content and for quoted attribute values. */
export function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface PageContext {
  lang: Lang;
  t: Texts;
  /** URLs of the stylesheet and the script, content-hashed. */
  assets: { css: string; js: string };
}

export interface FlowContext extends PageContext {
  token: string;
  csrf: string;
}

/** What a refused form brings back: the message, the field it is about, what the customer typed. */
export interface FormProblem {
  message: string;
  field?: 'operator' | 'phone' | 'otp';
  operator?: string;
  phone?: string;
}

/** Seconds between two looks at a waiting payment (meta refresh without script). */
export const REFRESH_SECONDS = 5;

const base = (token: string) => `/checkout/${encodeURIComponent(token)}`;

/** The whole page for a checkout. */
export function renderCheckoutPage(ctx: FlowContext, view: CheckoutView, problem?: FormProblem): string {
  const { t, lang } = ctx;
  const { payment, merchant } = view;
  const amount = formatAmount(payment.amountMinor, payment.currency);
  const other: Lang = lang === 'fr' ? 'en' : 'fr';
  const head = [
    `<title>${esc(t.pageTitle)} · ${esc(merchant.name)}</title>`,
    // Only while waiting and only without script: the script updates the page in place instead.
    view.state === 'waiting' ? `<noscript><meta http-equiv="refresh" content="${REFRESH_SECONDS}"></noscript>` : '',
  ].join('');
  const body = [
    payment.environment === 'test' ? `<p class="test-banner" role="note">${esc(t.testBanner)}</p>` : '',
    '<header class="summary">',
    `<p class="merchant">${esc(t.payTo)} <strong>${esc(merchant.name)}</strong></p>`,
    payment.description ? `<p class="description">${esc(payment.description)}</p>` : '',
    `<p class="amount"><span class="visually-hidden">${esc(t.amount)} : </span>${esc(amount)}</p>`,
    '</header>',
    `<main id="flow" data-state="${esc(view.state)}" data-status-url="${esc(`${base(ctx.token)}/status?lang=${lang}`)}" aria-live="polite">`,
    renderFlow(ctx, view, problem),
    '</main>',
    '<footer>',
    `<a href="${esc(`${base(ctx.token)}?lang=${other}`)}" hreflang="${other}" lang="${other}">${esc(t.switchLabel)}</a>`,
    `<span>${esc(t.poweredBy)}</span>`,
    '</footer>',
  ].join('');
  return documentOf(ctx, head, body);
}

/** The part of the page that follows the payment's state (also sent to the script by the status route). */
export function renderFlow(ctx: FlowContext, view: CheckoutView, problem?: FormProblem): string {
  switch (view.state) {
    case 'choose':
      return chooseForm(ctx, view, problem);
    case 'waiting':
      return waiting(ctx, view);
    case 'code':
      return codeForm(ctx, view, problem);
    default:
      return finalState(ctx, view, view.state, problem);
  }
}

/** A page without a checkout behind it (unknown link, refused request, too many attempts). */
export function renderMessagePage(ctx: PageContext, title: string, message: string, link?: { href: string; label: string }): string {
  const body = [
    '<main id="flow">',
    `<h1>${esc(title)}</h1>`,
    `<p class="notice" role="alert">${esc(message)}</p>`,
    link ? `<p><a class="button" href="${esc(link.href)}">${esc(link.label)}</a></p>` : '',
    '</main>',
  ].join('');
  return documentOf(ctx, `<title>${esc(title)}</title>`, body);
}

/** The page around `body`: head, stylesheet, script (also the payment-link page's, http/payment-links). */
export function documentOf(ctx: PageContext, head: string, body: string): string {
  return [
    '<!doctype html>',
    `<html lang="${ctx.lang}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<meta name="robots" content="noindex,nofollow">',
    // An empty icon: no /favicon.ico request on a slow connection.
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="${esc(ctx.assets.css)}">`,
    `<script src="${esc(ctx.assets.js)}" defer></script>`,
    head,
    '</head>',
    `<body>${body}</body>`,
    '</html>',
  ].join('');
}

function notice(problem: FormProblem | undefined): string {
  return problem ? `<p class="notice" role="alert" id="form-error">${esc(problem.message)}</p>` : '';
}

function hidden(ctx: FlowContext): string {
  return `<input type="hidden" name="csrf" value="${esc(ctx.csrf)}"><input type="hidden" name="lang" value="${ctx.lang}">`;
}

function chooseForm(ctx: FlowContext, view: CheckoutView, problem: FormProblem | undefined): string {
  const { t } = ctx;
  const { payment, operators } = view;
  const format = phoneFormats[payment.country];
  const chosen = problem?.operator ?? payment.operator ?? (operators.length === 1 ? operators[0]!.slug : undefined);
  const operatorItems = operators
    .map((operator) => {
      const id = `op-${operator.slug}`;
      const note = operator.requiresOtp ? ` <small>(${esc(t.needsCode)})</small>` : '';
      const checked = operator.slug === chosen ? ' checked' : '';
      return `<li><input type="radio" name="operator" id="${esc(id)}" value="${esc(operator.slug)}" required${checked}><label for="${esc(id)}">${esc(operator.label)}${note}</label></li>`;
    })
    .join('');
  const phoneInvalid = problem?.field === 'phone';
  return [
    `<form method="post" action="${esc(`${base(ctx.token)}/pay`)}" class="pay-form" novalidate>`,
    hidden(ctx),
    notice(problem),
    `<fieldset${problem?.field === 'operator' ? ' aria-invalid="true"' : ''}><legend>${esc(t.operatorLegend)}</legend><ul class="operators">${operatorItems}</ul></fieldset>`,
    '<label for="phone">',
    esc(t.phoneLabel),
    '</label>',
    `<input type="tel" id="phone" name="phone" inputmode="tel" autocomplete="tel-national" required maxlength="32" aria-describedby="phone-hint"`,
    ` value="${esc(problem?.phone ?? '')}" data-pattern="${esc(format.pattern)}" data-digits="${format.digits}" data-message="${esc(t.errors.invalidPhone(t.countries[payment.country], format.digits, format.example))}"${phoneInvalid ? ' aria-invalid="true"' : ''}>`,
    `<p class="hint" id="phone-hint">${esc(t.phoneHint(format.digits, format.example))}</p>`,
    `<button type="submit">${esc(t.pay(formatAmount(payment.amountMinor, payment.currency)))}</button>`,
    payment.environment === 'test' ? `<p class="hint test-hint">${esc(t.testHintPay)}</p>` : '',
    '</form>',
  ].join('');
}

function operatorLabel(view: CheckoutView): string {
  return view.operators.find((o) => o.slug === view.payment.operator)?.label ?? view.payment.operator ?? '';
}

function waiting(ctx: FlowContext, view: CheckoutView): string {
  const { t } = ctx;
  const onOperatorPage = view.payment.operatorRedirectUrl;
  if (onOperatorPage) {
    // The operator collects on its own page (Wave): the customer goes on there, and comes back.
    return [
      `<h1>${esc(t.payWith(operatorLabel(view)))}</h1>`,
      `<p>${esc(t.waitingOnOperatorText(operatorLabel(view)))}</p>`,
      `<p><a class="button" href="${esc(onOperatorPage)}" rel="noreferrer">${esc(t.payWith(operatorLabel(view)))}</a></p>`,
      `<p class="hint">${esc(t.waitingAuto)}</p>`,
      `<p><a class="button secondary" href="${esc(`${base(ctx.token)}?lang=${ctx.lang}`)}">${esc(t.refresh)}</a></p>`,
    ].join('');
  }
  return [
    `<h1>${esc(t.waitingTitle)}</h1>`,
    '<p class="spinner" aria-hidden="true"></p>',
    `<p>${esc(t.waitingText(maskPhone(view.payment.phone), operatorLabel(view)))}</p>`,
    `<p class="hint">${esc(t.waitingAuto)}</p>`,
    `<p><a class="button secondary" href="${esc(`${base(ctx.token)}?lang=${ctx.lang}`)}">${esc(t.refresh)}</a></p>`,
  ].join('');
}

function codeForm(ctx: FlowContext, view: CheckoutView, problem: FormProblem | undefined): string {
  const { t } = ctx;
  const operator = view.payment.operator ?? '';
  return [
    `<h1>${esc(t.codeTitle)}</h1>`,
    `<p id="code-how">${esc(t.codeHow(operatorLabel(view), paymentCodeUssd[operator]))}</p>`,
    view.payment.environment === 'test' ? `<p class="hint test-hint">${esc(t.testHintCode)}</p>` : '',
    `<form method="post" action="${esc(`${base(ctx.token)}/confirm`)}" novalidate>`,
    hidden(ctx),
    notice(problem),
    `<label for="otp">${esc(t.codeLabel)}</label>`,
    `<input type="text" id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" required minlength="4" maxlength="8" aria-describedby="code-how"${problem?.field === 'otp' ? ' aria-invalid="true"' : ''}>`,
    `<button type="submit">${esc(t.confirm)}</button>`,
    '</form>',
  ].join('');
}

function finalState(ctx: FlowContext, view: CheckoutView, state: Exclude<CheckoutState, 'choose' | 'waiting' | 'code'>, problem: FormProblem | undefined): string {
  const { t } = ctx;
  const words = {
    paid: [t.paidTitle, t.paidText(view.merchant.name)],
    failed: [t.failedTitle, t.failedText],
    cancelled: [t.cancelledTitle, t.cancelledText],
    expired: [t.expiredTitle, t.expiredText],
  }[state];
  const returnUrl = view.payment.returnUrl;
  return [
    notice(problem),
    `<h1 class="final ${state}">${esc(words[0]!)}</h1>`,
    `<p>${esc(words[1]!)}</p>`,
    returnUrl ? `<p><a class="button" href="${esc(returnUrl)}" rel="noreferrer">${esc(t.backTo(view.merchant.name))}</a></p>` : '',
  ].join('');
}
