import { Type } from 'typebox';
import { settlementAccountKinds } from '../../core/settlements/settlement-account.js';
import { ACCOUNT_DESCRIPTION_MAX_LENGTH, BANK_NAME_MAX_LENGTH, HOLDER_NAME_MAX_LENGTH } from '../../core/settlements/settlement-account-service.js';
import { MetadataInput, MetadataObject } from '../shared/metadata-schema.js';
import { listOf, listQuery } from '../shared/pagination.js';

const accountExample = {
  object: 'settlement_account',
  id: '0193a812-4c5d-7e6f-8091-a2b3c4d5e6f7',
  kind: 'wallet',
  status: 'cooling',
  currency: 'XOF',
  country: 'BJ',
  holder_name: 'Boutique Adjoa SARL',
  operator: 'mtn_bj',
  phone: '+2290197000001',
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

const Kind = Type.Enum(settlementAccountKinds, {
  description: '`wallet`: a Mobile Money wallet, paid by a payout; `bank`: a bank account, paid by an administrator outside Akwe.',
});
const Country = Type.String({
  minLength: 2,
  maxLength: 2,
  description: 'ISO code of a served country (BJ, TG, CI). Required for a wallet and with a RIB; for an IBAN, optional (the IBAN’s country) and else the IBAN’s.',
});
const HolderName = Type.String({ minLength: 1, maxLength: HOLDER_NAME_MAX_LENGTH, description: 'The name the wallet or bank account is held in.' });
const Operator = Type.String({ minLength: 1, maxLength: 32, description: 'Wallet: an operator that pays out in the country (slug or alias of the payout operator catalog).' });
const Phone = Type.String({ minLength: 1, maxLength: 32, description: 'Wallet: the number, national or E.164; stored E.164.' });
const Iban = Type.String({ minLength: 1, maxLength: 64, description: 'Bank: the IBAN (spaces allowed); stored compact and upper case.' });
const Rib = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Bank, instead of the IBAN: the 24-character UEMOA RIB (bank code, branch, account number, RIB key), read with `country`; stored as its IBAN.',
});
const BankName = Type.String({ maxLength: BANK_NAME_MAX_LENGTH, description: 'Bank: the bank’s name, for the administrator who pays.' });
const Description = Type.String({ maxLength: ACCOUNT_DESCRIPTION_MAX_LENGTH });

export const CreateSettlementAccountBody = Type.Object(
  {
    kind: Kind,
    country: Type.Optional(Country),
    holder_name: HolderName,
    operator: Type.Optional(Operator),
    phone: Type.Optional(Phone),
    iban: Type.Optional(Iban),
    rib: Type.Optional(Rib),
    bank_name: Type.Optional(BankName),
    description: Type.Optional(Description),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    title: 'CreateSettlementAccountRequest',
    description: 'A wallet (`country`, `operator`, `phone`) or a bank account (`iban`, or `rib` with `country`; `bank_name`), with the holder’s name.',
    examples: [
      { kind: 'wallet', country: 'BJ', operator: 'mtn_bj', phone: '0197000001', holder_name: 'Boutique Adjoa SARL', description: 'Main MTN wallet' },
      { kind: 'bank', iban: 'BJ66 BJ06 1010 0100 1443 9000 0769', bank_name: 'Banque Atlantique Bénin', holder_name: 'Boutique Adjoa SARL' },
      { kind: 'bank', country: 'CI', rib: 'CI008 01113 011342912005 89', holder_name: 'Boutique Adjoa SARL', metadata: { ledger_code: '512100' } },
    ],
  },
);

export const UpdateSettlementAccountBody = Type.Object(
  {
    kind: Type.Optional(Type.Enum(settlementAccountKinds, { description: 'Accepted only as the account’s own kind: a kind never changes.' })),
    country: Type.Optional(Country),
    holder_name: Type.Optional(HolderName),
    operator: Type.Optional(Operator),
    phone: Type.Optional(Phone),
    iban: Type.Optional(Iban),
    rib: Type.Optional(Rib),
    bank_name: Type.Optional(Type.Union([BankName, Type.Null()], { description: 'Bank: the bank’s name; null clears it.' })),
    description: Type.Optional(Type.Union([Description, Type.Null()], { description: 'null clears it.' })),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    title: 'UpdateSettlementAccountRequest',
    description:
      'Only the fields sent change. A change of where the money goes (holder_name, country, operator, phone, iban or rib, bank_name) restarts the cooling period; description and metadata (replaced whole) do not.',
    examples: [{ phone: '0197000002' }, { description: 'Savings account', metadata: { ledger_code: '512200' } }],
  },
);

export const SettlementAccountParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The settlement account’s id.' }) });

export const ListSettlementAccountsQuery = listQuery({
  kind: Type.Optional(Type.Enum(settlementAccountKinds, { description: 'Only wallets, or only bank accounts; both when absent.' })),
  include_removed: Type.Optional(Type.Boolean({ default: false, description: 'Removed accounts too (left out by default). `true`/`false` or `1`/`0`.' })),
});

export const SettlementAccountList = listOf(SettlementAccountObject, {
  title: 'SettlementAccountList',
  description: 'Your settlement accounts in the key’s environment, newest first.',
});
