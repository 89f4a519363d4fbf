/**
 * The payment-link page's own words, in French (the default) and English; what it shares with the
 * checkout page (banner, phone, operators, errors) comes from the checkout's texts.
 */
import type { PaymentLinkStatus } from '../../core/payment-links/payment-link.js';
import type { Lang } from '../checkout/checkout-texts.js';

export interface LinkTexts {
  amountLabel: string;
  amountHint: (min: string, max: string) => string;
  countryLabel: string;
  operatorAuto: string;
  operatorHint: string;
  continue: string;
  amountOutOfBounds: (min: string, max: string) => string;
  chooseCountry: string;
  unknownOperator: string;
  /** Every use of a limited link is held by a payment still under way (payment_link_in_use). */
  inUse: string;
  closedTitle: string;
  closed: Record<Exclude<PaymentLinkStatus, 'active'>, string>;
}

const fr: LinkTexts = {
  amountLabel: 'Montant à payer (FCFA)',
  amountHint: (min, max) => `Entre ${min} et ${max}`,
  countryLabel: 'Pays de votre numéro',
  operatorAuto: 'Deviner d’après mon numéro',
  operatorHint: 'Nous devinons l’opérateur d’après votre numéro ; changez-le s’il a été porté chez un autre.',
  continue: 'Continuer vers le paiement',
  amountOutOfBounds: (min, max) => `Le montant doit être un nombre entier de FCFA entre ${min} et ${max}.`,
  chooseCountry: 'Choisissez le pays de votre numéro.',
  unknownOperator: 'Nous n’avons pas reconnu l’opérateur de ce numéro : choisissez-le dans la liste.',
  inUse: 'Un autre paiement par ce lien est en cours. Rien n’a été débité. S’il n’aboutit pas, le lien sera de nouveau disponible : réessayez dans quelques minutes.',
  closedTitle: 'Ce lien ne prend plus de paiement',
  closed: {
    inactive: 'Le marchand a désactivé ce lien de paiement. Rien n’a été débité.',
    expired: 'Ce lien de paiement a expiré. Rien n’a été débité. Demandez un nouveau lien au marchand.',
    completed: 'Ce lien de paiement a déjà été payé. Rien n’a été débité. Demandez un nouveau lien au marchand.',
  },
};

const en: LinkTexts = {
  amountLabel: 'Amount to pay (FCFA)',
  amountHint: (min, max) => `Between ${min} and ${max}`,
  countryLabel: 'Country of your number',
  operatorAuto: 'Guess from my number',
  operatorHint: 'We guess the operator from your number; change it if the number moved to another one.',
  continue: 'Continue to payment',
  amountOutOfBounds: (min, max) => `The amount must be a whole number of FCFA between ${min} and ${max}.`,
  chooseCountry: 'Choose the country of your number.',
  unknownOperator: 'We could not tell this number’s operator: choose it from the list.',
  inUse: 'Another payment through this link is under way. Nothing was charged. If it does not go through, the link becomes available again: try again in a few minutes.',
  closedTitle: 'This link takes no more payments',
  closed: {
    inactive: 'The merchant deactivated this payment link. Nothing was charged.',
    expired: 'This payment link has expired. Nothing was charged. Ask the merchant for a new link.',
    completed: 'This payment link has already been paid. Nothing was charged. Ask the merchant for a new link.',
  },
};

export const linkTexts: Record<Lang, LinkTexts> = { fr, en };
