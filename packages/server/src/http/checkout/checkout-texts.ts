/**
 * Every word of the checkout page, in French (the default) and English. Functions take values
 * already formatted; the templates escape everything they interpolate.
 */
import type { CountryCode } from '../../core/catalog/operator-catalog.js';

export const languages = ['fr', 'en'] as const;
export type Lang = (typeof languages)[number];

/**
 * `?lang=` (the switch on the page, carried through forms and redirects) wins; then the browser's
 * Accept-Language, taken in its order of preference (q values); French when neither names fr or en.
 */
export function pickLanguage(query: unknown, acceptLanguage: string | undefined): Lang {
  if (query === 'fr' || query === 'en') return query;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { primary: tag.split('-')[0], q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { primary } of ranked) if (primary === 'fr' || primary === 'en') return primary;
  return 'fr';
}

export interface Texts {
  htmlLang: Lang;
  pageTitle: string;
  testBanner: string;
  payTo: string;
  amount: string;
  operatorLegend: string;
  needsCode: string;
  phoneLabel: string;
  phoneHint: (digits: number, example: string) => string;
  pay: (amount: string) => string;
  testHintPay: string;
  waitingTitle: string;
  waitingText: (phone: string, operator: string) => string;
  waitingAuto: string;
  /** An operator whose customers pay on its own page (Wave): the button that leads there. */
  payWith: (operator: string) => string;
  waitingOnOperatorText: (operator: string) => string;
  refresh: string;
  codeTitle: string;
  codeHow: (operator: string, ussd: string | undefined) => string;
  testHintCode: string;
  codeLabel: string;
  confirm: string;
  wrongCode: (left: number) => string;
  paidTitle: string;
  paidText: (merchant: string) => string;
  failedTitle: string;
  failedText: string;
  cancelledTitle: string;
  cancelledText: string;
  expiredTitle: string;
  expiredText: string;
  backTo: (merchant: string) => string;
  /** A customer back from an operator's page by a return link that cannot lead to the checkout page (docs/operators.md). */
  returnedTitle: string;
  returnedText: string;
  switchLabel: string;
  poweredBy: string;
  errors: {
    chooseOperator: string;
    invalidPhone: (country: string, digits: number, example: string) => string;
    invalidCode: string;
    notPayable: string;
    unavailable: string;
    forbidden: string;
    tooMany: (seconds: number) => string;
    notFound: string;
    notFoundTitle: string;
    generic: string;
  };
  countries: Record<CountryCode, string>;
}

const fr: Texts = {
  htmlLang: 'fr',
  pageTitle: 'Paiement',
  testBanner: 'Mode test : aucun argent réel n’est débité.',
  payTo: 'Paiement à',
  amount: 'Montant',
  operatorLegend: 'Votre opérateur Mobile Money',
  needsCode: 'code de paiement demandé',
  phoneLabel: 'Numéro Mobile Money',
  phoneHint: (digits, example) => `${digits} chiffres, par exemple ${example}`,
  pay: (amount) => `Payer ${amount}`,
  testHintPay: 'Test : un numéro finissant par 0001 échoue, 0002 reste en attente, 0003 est annulé ; les autres réussissent.',
  waitingTitle: 'Validez le paiement sur votre téléphone',
  waitingText: (phone, operator) => `Une demande ${operator} a été envoyée au ${phone}. Confirmez-la avec votre code secret Mobile Money.`,
  waitingAuto: 'Cette page se met à jour dès que le paiement est validé.',
  payWith: (operator) => `Payer avec ${operator}`,
  waitingOnOperatorText: (operator) => `Terminez le paiement sur la page ${operator}, puis revenez ici.`,
  refresh: 'Actualiser',
  codeTitle: 'Entrez votre code de paiement',
  codeHow: (operator, ussd) =>
    ussd ? `Composez ${ussd} sur votre téléphone ${operator} pour obtenir un code de paiement, puis saisissez-le ici.` : `Saisissez le code de paiement envoyé par ${operator}.`,
  testHintCode: 'Test : 123456 valide le paiement, 000000 le refuse.',
  codeLabel: 'Code de paiement',
  confirm: 'Valider',
  wrongCode: (left) => `Code incorrect. ${left === 1 ? 'Il vous reste 1 essai.' : `Il vous reste ${left} essais.`}`,
  paidTitle: 'Paiement réussi',
  paidText: (merchant) => `Merci ! ${merchant} a bien reçu votre paiement.`,
  failedTitle: 'Paiement échoué',
  failedText: 'Le paiement n’a pas abouti.',
  cancelledTitle: 'Paiement annulé',
  cancelledText: 'Ce paiement a été annulé.',
  expiredTitle: 'Paiement expiré',
  expiredText: 'Le délai pour payer est dépassé. Demandez un nouveau lien au marchand.',
  backTo: (merchant) => `Retour chez ${merchant}`,
  returnedTitle: 'Paiement en cours de traitement',
  returnedText: 'Le marchand sera informé du résultat de votre paiement. Vous pouvez fermer cette page.',
  switchLabel: 'English',
  poweredBy: 'Paiement sécurisé par Akwe',
  errors: {
    chooseOperator: 'Choisissez votre opérateur.',
    invalidPhone: (country, digits, example) => `Ce numéro n’est pas un numéro mobile valide ${country} : ${digits} chiffres, par exemple ${example}.`,
    invalidCode: 'Le code contient de 4 à 8 chiffres.',
    notPayable: 'Ce paiement ne peut plus être réglé sur cette page.',
    unavailable: 'Le paiement Mobile Money est momentanément indisponible. Rien n’a été débité ; réessayez plus tard.',
    forbidden: 'Cette page a expiré. Rechargez-la puis réessayez.',
    tooMany: (seconds) => `Trop de tentatives. Réessayez dans ${seconds} secondes.`,
    notFound: 'Ce lien de paiement n’existe pas. Vérifiez le lien envoyé par le marchand.',
    notFoundTitle: 'Lien introuvable',
    generic: 'Une erreur est survenue. Rechargez cette page dans un instant : elle montre si le paiement a abouti avant que vous ne réessayiez.',
  },
  countries: { BJ: 'au Bénin', TG: 'au Togo', CI: 'en Côte d’Ivoire' },
};

const en: Texts = {
  htmlLang: 'en',
  pageTitle: 'Payment',
  testBanner: 'Test mode: no real money moves.',
  payTo: 'Payment to',
  amount: 'Amount',
  operatorLegend: 'Your Mobile Money operator',
  needsCode: 'payment code needed',
  phoneLabel: 'Mobile Money number',
  phoneHint: (digits, example) => `${digits} digits, for example ${example}`,
  pay: (amount) => `Pay ${amount}`,
  testHintPay: 'Test: a number ending in 0001 fails, 0002 stays pending, 0003 is cancelled; any other succeeds.',
  waitingTitle: 'Approve the payment on your phone',
  waitingText: (phone, operator) => `A ${operator} request was sent to ${phone}. Approve it with your Mobile Money PIN.`,
  waitingAuto: 'This page updates as soon as the payment is approved.',
  payWith: (operator) => `Pay with ${operator}`,
  waitingOnOperatorText: (operator) => `Finish the payment on the ${operator} page, then come back here.`,
  refresh: 'Refresh',
  codeTitle: 'Enter your payment code',
  codeHow: (operator, ussd) => (ussd ? `Dial ${ussd} on your ${operator} phone to get a payment code, then enter it here.` : `Enter the payment code sent by ${operator}.`),
  testHintCode: 'Test: 123456 approves the payment, 000000 refuses it.',
  codeLabel: 'Payment code',
  confirm: 'Confirm',
  wrongCode: (left) => `Wrong code. ${left === 1 ? '1 attempt left.' : `${left} attempts left.`}`,
  paidTitle: 'Payment successful',
  paidText: (merchant) => `Thank you! ${merchant} has received your payment.`,
  failedTitle: 'Payment failed',
  failedText: 'The payment did not go through.',
  cancelledTitle: 'Payment cancelled',
  cancelledText: 'This payment was cancelled.',
  expiredTitle: 'Payment expired',
  expiredText: 'The time to pay has run out. Ask the merchant for a new link.',
  backTo: (merchant) => `Back to ${merchant}`,
  returnedTitle: 'Payment being processed',
  returnedText: 'The merchant will be told how your payment went. You can close this page.',
  switchLabel: 'Français',
  poweredBy: 'Secure payment by Akwe',
  errors: {
    chooseOperator: 'Choose your operator.',
    invalidPhone: (country, digits, example) => `This is not a valid mobile number ${country}: ${digits} digits, for example ${example}.`,
    invalidCode: 'The code has 4 to 8 digits.',
    notPayable: 'This payment can no longer be paid on this page.',
    unavailable: 'Mobile Money payment is unavailable right now. Nothing was charged; please try again later.',
    forbidden: 'This page has expired. Reload it and try again.',
    tooMany: (seconds) => `Too many attempts. Try again in ${seconds} seconds.`,
    notFound: 'This payment link does not exist. Check the link the merchant sent you.',
    notFoundTitle: 'Link not found',
    generic: 'Something went wrong. Reload this page in a moment: it shows whether the payment went through before you try again.',
  },
  countries: { BJ: 'in Benin', TG: 'in Togo', CI: 'in Côte d’Ivoire' },
};

export const texts: Record<Lang, Texts> = { fr, en };
