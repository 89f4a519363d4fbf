/**
 * FedaPay's payment modes: the name of each operator in FedaPay's no-redirect send
 * (`POST /v1/transactions/{mode}`) and in its payouts' `mode`, per catalog gateway code. From
 * FedaPay's "Payment methods" page (modes without redirection): Bénin MTN `mtn_open`, Moov `moov`,
 * Celtiis `sbin`; Togo Moov (Flooz) `moov_tg`, Togocom / Mixx by Yas (T-Money) `togocel`. The
 * operators file may name another mode for an entry if FedaPay renames one.
 */
export const fedaPayModes: Readonly<Record<string, string>> = {
  MTN_BJ: 'mtn_open',
  MOOV_BJ: 'moov',
  CELTIIS_BJ: 'sbin',
  TMONEY_TG: 'togocel',
  FLOOZ_TG: 'moov_tg',
};

/** The catalog operators FedaPay can serve. */
export const fedaPayGatewayCodes = Object.keys(fedaPayModes);
