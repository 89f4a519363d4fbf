/**
 * How the page writes amounts and phone numbers the way customers in Benin, Togo and Côte d'Ivoire
 * do, whatever the page's language: `3 000 FCFA` (French digit grouping, no-break spaces).
 */
import type { CountryCode } from '../../core/catalog/operator-catalog.js';

const grouping = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 2 });

/** Centimes -> `3 000 FCFA` (XOF and XAF are both the franc CFA; U+202F between thousands, U+00A0 before the unit). */
export function formatAmount(amountMinor: number, currency: string): string {
  const unit = currency === 'XOF' || currency === 'XAF' ? 'FCFA' : currency;
  return `${grouping.format(amountMinor / 100)}\u00a0${unit}`;
}

/**
 * What the page tells the customer about their country's numbers, and the light check its script
 * makes while they type (the server makes the real one with libphonenumber-js, core/phones).
 */
export interface PhoneFormat {
  digits: number;
  example: string;
  /** National digits, spaces and separators removed; checked client-side only. */
  pattern: string;
}

export const phoneFormats: Record<CountryCode, PhoneFormat> = {
  // Benin: 10 digits, 01 + the former 8 (since 30 November 2024).
  BJ: { digits: 10, example: '01 97 00 00 00', pattern: '^01[0-9]{8}$' },
  // Togo: 8 digits, mobiles from 7 or 9.
  TG: { digits: 8, example: '90 00 00 00', pattern: '^[79][0-9]{7}$' },
  // Côte d'Ivoire: 10 digits since 2021, mobiles 01 (Moov), 05 (MTN), 07 (Orange).
  CI: { digits: 10, example: '07 00 00 00 00', pattern: '^0[157][0-9]{8}$' },
};

/** The customer's own number, shown while waiting with all but its last four digits hidden. */
export function maskPhone(e164: string | null): string {
  if (!e164) return '';
  const last = e164.slice(-4);
  return `•• •• ${last.slice(0, 2)} ${last.slice(2)}`;
}

/** Where an OTP operator's customer gets a payment code (shown on the code step). */
export const paymentCodeUssd: Readonly<Record<string, string>> = {
  // Orange Money Côte d'Ivoire: a temporary payment code from the Orange Money menu.
  orange_ci: '#144*82#',
};
