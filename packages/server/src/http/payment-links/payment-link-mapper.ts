import type { PaymentLinkView } from '../../core/payment-links/payment-link.js';
import { toMajorUnitsFloor } from '../../core/shared/money.js';

/** The public page of a link: its slug, never its id. */
export function paymentLinkUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}/pay/${slug}`;
}

const major = (minor: number | null) => (minor === null ? null : toMajorUnitsFloor(minor));

/** Domain -> the payment_link object: each amount in major units and, beside it, `_minor` in centimes. */
export function paymentLinkToWire(view: PaymentLinkView, publicUrl: string) {
  const { link } = view;
  return {
    object: 'payment_link' as const,
    id: link.id,
    url: paymentLinkUrl(publicUrl, link.slug),
    status: view.status,
    amount: major(link.amountMinor),
    amount_minor: link.amountMinor,
    min_amount: major(link.minAmountMinor),
    min_amount_minor: link.minAmountMinor,
    max_amount: major(link.maxAmountMinor),
    max_amount_minor: link.maxAmountMinor,
    currency: link.currency,
    countries: link.countries,
    description: link.description,
    reusable: link.reusable,
    max_payments: link.maxPayments,
    completed_payments: view.completedPayments,
    expires_at: link.expiresAt,
    return_url: link.returnUrl,
    metadata: link.metadata,
    deactivated_at: link.deactivatedAt,
    environment: link.environment,
    sandbox: link.environment === 'test',
    created_at: link.createdAt,
    updated_at: link.updatedAt,
  };
}
