/** Amounts, dates and statuses as people read them, in the page's language. */
import type { Language } from './i18n.js';

const locales: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB' };

/** An amount in the currency's unit (3000 XOF); centimes show only when there are some. */
export function formatMoney(amount: number | undefined | null, currency: string, language: Language): string {
  if (amount === undefined || amount === null) return '—';
  return new Intl.NumberFormat(locales[language], { style: 'currency', currency, minimumFractionDigits: Number.isInteger(amount) ? 0 : 2, maximumFractionDigits: 2 }).format(
    amount,
  );
}

/** The API's `_minor` amounts are centimes (1 XOF = 100). */
export function formatMinor(amountMinor: number | undefined | null, currency: string, language: Language): string {
  return formatMoney(amountMinor === undefined || amountMinor === null ? amountMinor : amountMinor / 100, currency, language);
}

export function formatDateTime(iso: string | undefined | null, language: Language): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(locales[language], { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function formatDay(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(locales[language], { day: 'numeric', month: 'short' }).format(new Date(iso));
}

export function formatNumber(value: number, language: Language): string {
  return new Intl.NumberFormat(locales[language]).format(value);
}
