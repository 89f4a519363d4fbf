/** A payment link as the API shows it (docs/payment-links.md, "The object"): the fields the pages use. */
export interface PaymentLink {
  id: string;
  url: string;
  status: 'active' | 'inactive' | 'expired' | 'completed';
  amount_minor: number | null;
  min_amount_minor: number | null;
  max_amount_minor: number | null;
  currency: string;
  countries: string[];
  description: string;
  reusable: boolean;
  max_payments: number | null;
  completed_payments: number;
  expires_at: string | null;
  return_url: string | null;
  deactivated_at: string | null;
  created_at: string;
}

/** The message a customer receives on WhatsApp: what is sold, then the link (wa.me lets them pick the chat). */
export function whatsappShareUrl(link: Pick<PaymentLink, 'url' | 'description'>): string {
  return `https://wa.me/?text=${encodeURIComponent(`${link.description} : ${link.url}`)}`;
}
