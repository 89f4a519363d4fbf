// The amount of a batch line: whole centimes, like payouts. Spreadsheets write amounts as text,
// so a CSV cell is parsed here; a JSON item arrives as a number.

export type AmountReading = { ok: true; amountMinor: number } | { ok: false; message: string };

// French spreadsheets group thousands with a space, a no-break space or a narrow no-break space
// ("2 500 000"); these groups are accepted. Commas and dots are not, as they read as a decimal
// mark in one language or the other and an amount must never be guessed.
const plainDigits = /^\d+$/;
const spaceGrouped = /^\d{1,3}(?:[ \u00a0\u202f]\d{3})+$/;
const decimal = /^\d[\d \u00a0\u202f]*[.,]\d+$/;

const wholeCentimes = 'Amounts are whole centimes (2500000 = 25 000 FCFA)';

export function readAmount(raw: string | number): AmountReading {
  if (typeof raw === 'number') {
    if (!Number.isSafeInteger(raw)) return { ok: false, message: `${wholeCentimes}; got ${raw}.` };
    return raw > 0 ? { ok: true, amountMinor: raw } : { ok: false, message: `The amount must be more than 0; got ${raw}. ${wholeCentimes}.` };
  }
  const text = raw.trim();
  if (!plainDigits.test(text) && !spaceGrouped.test(text)) {
    const why = decimal.test(text) ? 'without a decimal part' : 'written with digits only (spaces between thousands allowed)';
    return { ok: false, message: `${wholeCentimes}, ${why}; got "${text}".` };
  }
  const amountMinor = Number(text.replace(/\D/g, ''));
  if (!Number.isSafeInteger(amountMinor)) return { ok: false, message: `The amount is too large; got "${text}". ${wholeCentimes}.` };
  if (amountMinor === 0) return { ok: false, message: `The amount must be more than 0. ${wholeCentimes}.` };
  return { ok: true, amountMinor };
}
