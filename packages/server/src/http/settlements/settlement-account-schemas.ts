import { Type } from 'typebox';
import { settlementAccountKinds } from '../../core/settlements/settlement-account.js';
import { MetadataObject } from '../shared/metadata-schema.js';

const accountExample = {
  object: 'settlement_account',
  id: '0193a812-4c5d-7e6f-8091-a2b3c4d5e6f7',
  kind: 'wallet',
  status: 'cooling',
  currency: 'XOF',
  country: 'BJ',
  holder_name: 'Boutique Adjoa SARL',
  operator: 'mtn-bj',
  phone: '+22990000001',
  iban: null,
  bank_name: null,
  description: 'Main MTN wallet',
  metadata: {},
  usable_from: '2026-06-18T09:00:00.000Z',
  removed_at: null,
  environment: 'live',
  sandbox: false,
  created_at: '2026-06-17T09:00:00.000Z',
  updated_at: '2026-06-17T09:00:00.000Z',
} as const;

export const SettlementAccountObject = Type.Object(
  {
    object: Type.Literal('settlement_account'),
    id: Type.String({ format: 'uuid' }),
    kind: Type.Enum(settlementAccountKinds, { description: '`wallet`: paid by a Mobile Money payout; `bank`: paid by an administrator outside Akwe.' }),
    status: Type.Enum(['cooling', 'usable', 'removed'], { description: '`cooling` until `usable_from` (a new or changed account waits), then `usable`; `removed` for good.' }),
    currency: Type.String(),
    country: Type.String(),
    holder_name: Type.String(),
    operator: Type.Union([Type.String(), Type.Null()], { description: 'Wallet: the catalog operator.' }),
    phone: Type.Union([Type.String(), Type.Null()], { description: 'Wallet: the number, E.164.' }),
    iban: Type.Union([Type.String(), Type.Null()], { description: 'Bank: the IBAN, compact and uppercase.' }),
    bank_name: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    metadata: MetadataObject,
    usable_from: Type.String({ description: 'When the account can first receive a settlement (created or last changed + the cooling period).' }),
    removed_at: Type.Union([Type.String(), Type.Null()]),
    environment: Type.String(),
    sandbox: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { title: 'SettlementAccount', description: 'Where your settlements go: your own wallet or bank account, in one environment.', examples: [accountExample] },
);
