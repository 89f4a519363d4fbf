import type { ConnectorFamily } from './connector-family.js';
import { fedaPayFamily } from './fedapay/fedapay-family.js';
import { mtnMomoFamily } from './mtn-momo/mtn-family.js';
import { pawapayFamily } from './pawapay/pawapay-family.js';
import { waveFamily } from './wave/wave-family.js';
import { orangeMoneyFamily } from './orange-money/orange-family.js';

/** Every live connector family this server can configure, by the `connector` name of its entries. */
export const connectorFamilies: ReadonlyMap<string, ConnectorFamily<never>> = new Map<string, ConnectorFamily<never>>([
  [mtnMomoFamily.name, mtnMomoFamily as ConnectorFamily<never>],
  [waveFamily.name, waveFamily as ConnectorFamily<never>],
  [pawapayFamily.name, pawapayFamily as ConnectorFamily<never>],
  [fedaPayFamily.name, fedaPayFamily as ConnectorFamily<never>],
  [orangeMoneyFamily.name, orangeMoneyFamily as ConnectorFamily<never>],
]);
