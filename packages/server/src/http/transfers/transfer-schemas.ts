import { Type } from 'typebox';
import { transferDirections } from '../../core/transfers/transfer.js';
import { Reference } from '../contracts/collect-2026-06/payment-schemas.js';
import { MetadataInput, MetadataObject, metadataFilterProperties } from '../shared/metadata-schema.js';
import { inCentimes } from '../shared/money-descriptions.js';
import { listOf, listQuery } from '../shared/pagination.js';

/** A new transfer (docs/transfers.md); ours, so its money field is `amount_minor`, in centimes. */
export const CreateTransferBody = Type.Object(
  {
    receiver: Type.String({ minLength: 1, maxLength: 64, description: 'The receiving merchant’s id: the `merchant_id` GET /api/v1/account shows it.' }),
    amount_minor: Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: inCentimes('Moved from your available balance to the receiver’s.') }),
    currency: Type.String({ minLength: 1, maxLength: 16, description: 'A currency of your balance in the key’s environment (XOF).' }),
    reference: Reference,
    description: Type.Optional(Type.String({ maxLength: 255, description: 'Shown to both merchants.' })),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    title: 'CreateTransferRequest',
    examples: [
      {
        receiver: '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
        amount_minor: 1500000,
        currency: 'XOF',
        reference: 'supplier-2026-06-17',
        description: 'June delivery',
        metadata: { invoice: 'F-2026-118' },
      },
    ],
  },
);

const transferExample = {
  object: 'transfer',
  id: '0193a7f2-8b9c-7d0e-9f1a-2b3c4d5e6f70',
  direction: 'sent',
  sender: '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
  receiver: '0193a6c4-2d3e-7f40-8152-6a7b8c9d0e1f',
  reference: 'supplier-2026-06-17',
  amount_minor: 1500000,
  currency: 'XOF',
  description: 'June delivery',
  metadata: { invoice: 'F-2026-118' },
  environment: 'test',
  sandbox: true,
  idempotent_replay: false,
  created_at: '2026-06-17T10:04:00.000Z',
} as const;

export const TransferObject = Type.Object(
  {
    object: Type.Literal('transfer'),
    id: Type.String({ format: 'uuid' }),
    direction: Type.Enum(transferDirections, { description: 'Seen from the reader: `sent` by it or `received` by it.' }),
    sender: Type.String({ description: 'The sending merchant’s id.' }),
    receiver: Type.String({ description: 'The receiving merchant’s id.' }),
    reference: Type.Union([Type.String(), Type.Null()], { description: 'The sender’s own reference; null on the receiver’s side.' }),
    amount_minor: Type.Integer({ description: inCentimes('What moved; no fee is charged on transfers.') }),
    currency: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    metadata: MetadataObject,
    environment: Type.String(),
    sandbox: Type.Boolean(),
    idempotent_replay: Type.Boolean(),
    created_at: Type.String(),
  },
  { title: 'Transfer', description: 'Money moved at once from one merchant’s available balance to another’s, in one environment.', examples: [transferExample] },
);

export const TransferParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The transfer’s id, or the sender’s reference.' }) });

export const ListTransfersQuery = listQuery(
  {
    direction: Type.Optional(Type.Enum(transferDirections, { description: 'Only the transfers sent, or only those received; both when absent.' })),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    created_gte: Type.Optional(Type.String({ format: 'date-time' })),
    created_lte: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { patternProperties: metadataFilterProperties },
);

export const TransferList = listOf(TransferObject, { title: 'TransferList', description: 'The merchant’s transfers, sent and received, newest first.' });
