/** Example files for the OpenAPI document, written by the exports' own columns and quoting. */
import { balanceTransactionColumns, batchLineColumns, paymentColumns, payoutColumns, type Column } from '../../core/exports/export-columns.js';
import { csvLine } from '../../core/exports/csv-cells.js';

function exampleFile<T>(columns: readonly Column<T>[], rows: T[]): string {
  return [columns.map((column) => column.heading), ...rows.map((row) => columns.map((column) => column.cell(row)))].map((cells) => csvLine(cells)).join('');
}

export const paymentsCsvExample = exampleFile(paymentColumns, [
  {
    id: '0193a7e1-5d6e-7f80-9a1b-2c3d4e5f6a7b',
    reference: 'ORDER-1001',
    createdAt: '2026-06-01T09:30:00.000Z',
    updatedAt: '2026-06-01T09:30:04.000Z',
    environment: 'test',
    status: 'completed',
    mode: 'direct',
    amountMinor: 300000,
    feeMinor: 4500,
    refundedMinor: 0,
    currency: 'XOF',
    country: 'BJ',
    operator: 'mtn_bj',
    phone: '+2290197000000',
    pspReference: 'sbx-7f3a',
    failureCode: null,
    description: 'Commande 1001, livraison Cotonou',
    metadata: { cart_id: 'C-88' },
  },
]);

export const payoutsCsvExample = exampleFile(payoutColumns, [
  {
    id: '0193a7e1-4c5d-7e6f-8a9b-0c1d2e3f4a5b',
    reference: 'salary-2026-06-042',
    createdAt: '2026-06-01T09:30:00.000Z',
    updatedAt: '2026-06-01T09:31:00.000Z',
    environment: 'test',
    status: 'COMPLETED',
    amountMinor: 2500000,
    feeMinor: 37500,
    currency: 'XOF',
    country: 'BJ',
    operator: 'mtn_bj',
    phone: '+2290197000000',
    recipientFirstName: 'Afi',
    recipientLastName: 'Mensah',
    pspReference: 'sbx-po-12',
    failureCode: null,
    description: 'Salaire juin 2026',
    metadata: {},
  },
]);

export const balanceTransactionsCsvExample = exampleFile(balanceTransactionColumns, [
  {
    id: '0193a7e1-5d6e-7f80-9a1b-2c3d4e5f6a7b',
    createdAt: '2026-06-01T09:30:00.000Z',
    environment: 'test',
    type: 'payout_reservation',
    currency: 'XOF',
    availableChangeMinor: -2537500,
    reservedChangeMinor: 2537500,
    feeMinor: 0,
    source: { type: 'payout', id: '0193a7e1-4c5d-7e6f-8a9b-0c1d2e3f4a5b', reference: 'salary-2026-06-042' },
    description: 'Payout salary-2026-06-042 reserved (amount and fee)',
    settlementId: null,
  },
]);

export const batchLinesCsvExample = exampleFile(batchLineColumns, [
  {
    id: '0193a7e2-0a1b-7c2d-8e3f-4a5b6c7d8e01',
    batchId: '0193a7e2-0a1a-7c2d-8e3f-4a5b6c7d8e00',
    batchName: 'Salaires juin 2026',
    row: 2,
    reference: 'salary-2026-06-001',
    createdAt: '2026-06-01T09:30:00.000Z',
    updatedAt: '2026-06-01T09:35:00.000Z',
    environment: 'test',
    status: 'completed',
    beneficiaryName: 'Afi Mensah',
    phone: '+2290197000000',
    amountMinor: 2500000,
    feeMinor: 37500,
    currency: 'XOF',
    country: 'BJ',
    operator: 'mtn_bj',
    payoutId: '0193a7e2-4c5d-7e6f-8a9b-0c1d2e3f4a5b',
    failureCode: null,
    problems: null,
    description: 'Salaire juin 2026',
    metadata: {},
  },
  {
    id: '0193a7e2-0a1b-7c2d-8e3f-4a5b6c7d8e02',
    batchId: '0193a7e2-0a1a-7c2d-8e3f-4a5b6c7d8e00',
    batchName: 'Salaires juin 2026',
    row: 3,
    reference: 'salary-2026-06-002',
    createdAt: '2026-06-01T09:30:00.000Z',
    updatedAt: '2026-06-01T09:36:00.000Z',
    environment: 'test',
    status: 'failed',
    beneficiaryName: 'Kossi Agbo',
    phone: '+2290196000000',
    amountMinor: 1800000,
    feeMinor: 27000,
    currency: 'XOF',
    country: 'BJ',
    operator: 'mtn_bj',
    payoutId: '0193a7e2-4c5d-7e6f-8a9b-0c1d2e3f4a5c',
    failureCode: 'payer_not_found',
    problems: null,
    description: 'Salaire juin 2026',
    metadata: {},
  },
]);

/** A settlement statement's CSV: the columns of the balance-transactions export, oldest first. */
export const statementCsvExample = exampleFile(balanceTransactionColumns, [
  {
    id: '0193a8f0-1a2b-7c3d-8e4f-5a6b7c8d9e01',
    createdAt: '2026-06-17T10:00:00.000Z',
    environment: 'live',
    type: 'collection',
    currency: 'XOF',
    availableChangeMinor: 24625000,
    reservedChangeMinor: 0,
    feeMinor: 375000,
    source: { type: 'payment', id: '0193a8f0-0a1b-7c2d-8e3f-4a5b6c7d8e9f', reference: 'ORDER-1001' },
    description: 'Collection ORDER-1001',
    settlementId: '0193a901-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  },
  {
    id: '0193a901-1a2c-7c3d-8e4f-5a6b7c8d9e10',
    createdAt: '2026-06-18T00:00:02.000Z',
    environment: 'live',
    type: 'settlement_reservation',
    currency: 'XOF',
    availableChangeMinor: -24625000,
    reservedChangeMinor: 24625000,
    feeMinor: 0,
    source: { type: 'settlement', id: '0193a901-1a2b-7c3d-8e4f-5a6b7c8d9e0f', reference: 'settle-2026-06-18' },
    description: 'Settlement settle-2026-06-18 reserved',
    settlementId: '0193a901-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  },
]);
