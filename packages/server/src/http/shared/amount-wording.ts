import { AkweError } from '../../core/errors/index.js';
import { amountBoundMessage, amountUnitHint, type AmountUnit } from '../../core/shared/amount-units.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The unit of the route's `amount`: major units on the current collect contract, centimes (the default) elsewhere. */
    amountUnit?: AmountUnit;
  }
}

const isAmountField = (field: string) => field === 'amount' || field.endsWith('.amount');

/**
 * An error worded in the route's amount unit: an amount bound in that unit, and a schema complaint
 * about an amount (not an integer, negative, too large) followed by the unit and its conversion.
 */
export function inAmountUnit(error: AkweError, unit: AmountUnit): AkweError {
  if (error.amountBound) {
    if (unit === 'minor') return error;
    const message = amountBoundMessage(error.amountBound, unit);
    return new AkweError(error.code, message, { field: 'amount', details: [{ field: 'amount', message }], amountBound: error.amountBound });
  }
  if (error.code !== 'validation_error' || !error.details?.some((detail) => isAmountField(detail.field))) return error;
  const hinted = (field: string, message: string) => (isAmountField(field) ? `${message} (${amountUnitHint(unit)})` : message);
  const details = error.details.map((detail) => ({ ...detail, message: hinted(detail.field, detail.message) }));
  const message = error.field === undefined ? error.message : hinted(error.field, error.message);
  return new AkweError(error.code, message, { field: error.field, details, ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }) });
}
