import { amountBoundMessage, type AmountBound } from '../shared/amount-units.js';
import { errorCatalog, type ErrorCode } from './error-catalog.js';

export interface ErrorDetail {
  field: string;
  message: string;
  /** The line at fault, for a bulk batch's line problems (docs/bulk.md "Problems"). */
  row?: number;
  /** The line problem's own code, when it is not the error's (`invalid_phone` in a `validation_error`). */
  code?: string;
}

/** A failure the caller can act on: a stable code, a human message, optionally the field at fault. */
export class AkweError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly field: string | undefined;
  readonly details: ErrorDetail[] | undefined;
  /** Sent as the Retry-After header: when trying again makes sense. */
  readonly retryAfterSeconds: number | undefined;
  /** For amount_too_low / amount_too_high: the bound, so each contract's edge words it in its unit. */
  readonly amountBound: AmountBound | undefined;

  constructor(code: ErrorCode, message?: string, options: { field?: string; details?: ErrorDetail[]; retryAfterSeconds?: number; amountBound?: AmountBound } = {}) {
    super(message ?? errorCatalog[code].message);
    this.name = 'AkweError';
    this.code = code;
    this.status = errorCatalog[code].status;
    this.field = options.field;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.amountBound = options.amountBound;
  }

  /** amount_too_low / amount_too_high, worded in centimes until a contract's edge words it in its own unit. */
  static ofAmount(bound: AmountBound): AkweError {
    const message = amountBoundMessage(bound, 'minor');
    return new AkweError(bound.bound === 'minimum' ? 'amount_too_low' : 'amount_too_high', message, {
      field: 'amount',
      details: [{ field: 'amount', message }],
      amountBound: bound,
    });
  }

  /** An error about one field: `field` names it, and so does the one detail carrying the message. */
  static ofField(code: ErrorCode, field: string, message: string): AkweError {
    return new AkweError(code, message, { field, details: [{ field, message }] });
  }
}
