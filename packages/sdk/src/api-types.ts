/**
 * Names for the generated OpenAPI types (src/generated/openapi.ts): request bodies, query
 * parameters and results of each operation by its operationId, the schemas by their titles, and
 * the webhook events as one union narrowed by `type`.
 */
import type { components, operations, webhooks } from './generated/openapi.js';

export type { components, operations, paths, webhooks } from './generated/openapi.js';

type OperationId = keyof operations;

/** The JSON body an operation takes. */
export type RequestBody<K extends OperationId> = operations[K] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : operations[K] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : never;

/** The query parameters an operation takes (an empty object when it takes none). */
export type QueryParams<K extends OperationId> = operations[K]['parameters'] extends { query?: infer Q } ? ([Q] extends [never] ? Record<string, never> : NonNullable<Q>) : never;

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type SuccessOf<R> = R extends { 200: infer S } ? JsonOf<S> : R extends { 201: infer S } ? JsonOf<S> : R extends { 202: infer S } ? JsonOf<S> : never;

/** What an operation answers on success. */
export type Result<K extends OperationId> = SuccessOf<operations[K]['responses']>;

type Schemas = components['schemas'];
export type Account = Schemas['Account'];
export type OperatorCatalog = Schemas['OperatorCatalog'];
export type Payment = Schemas['Payment'];
export type CreatePaymentParams = Schemas['CreatePaymentRequest'];
export type ConfirmPaymentParams = Schemas['ConfirmPaymentRequest'];
export type Refund = Schemas['Refund'];
export type CreateRefundParams = Schemas['CreateRefundRequest'];
export type Payout = Schemas['Payout'];
export type CreatePayoutParams = Schemas['CreatePayoutRequest'];
export type PayoutOperatorCatalog = Schemas['PayoutOperatorCatalog'];
export type BulkPayment = Schemas['BulkPayment'];
export type BulkPaymentItem = Schemas['BulkPaymentItem'];
export type CreateBulkPaymentParams = Schemas['CreateBulkPaymentRequest'];
export type Balance = Schemas['Balance'];
export type BalanceTransaction = Schemas['BalanceTransaction'];
export type Transfer = Schemas['Transfer'];
export type CreateTransferParams = Schemas['CreateTransferRequest'];
export type Settlement = Schemas['Settlement'];
export type CreateSettlementParams = Schemas['CreateSettlementRequest'];
export type SettlementStatement = Schemas['SettlementStatement'];
export type SettlementAccount = Schemas['SettlementAccount'];
export type CreateSettlementAccountParams = Schemas['CreateSettlementAccountRequest'];
export type UpdateSettlementAccountParams = Schemas['UpdateSettlementAccountRequest'];
export type PaymentLink = Schemas['PaymentLink'];
export type CreatePaymentLinkParams = Schemas['CreatePaymentLinkRequest'];
export type UpdatePaymentLinkParams = Schemas['UpdatePaymentLinkRequest'];
export type OperatorPrediction = Schemas['OperatorPrediction'];
export type Event = Schemas['Event'];
export type Delivery = Schemas['Delivery'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type CreateWebhookEndpointParams = Schemas['CreateWebhookEndpointRequest'];
export type UpdateWebhookEndpointParams = Schemas['UpdateWebhookEndpointRequest'];
export type WebhookEndpointSecret = Schemas['WebhookEndpointSecret'];
export type DeletedWebhookEndpoint = Schemas['DeletedWebhookEndpoint'];
export type CallbackSecret = Schemas['CallbackSecret'];
export type ErrorBody = Schemas['Error'];

type WebhookBody<W> = W extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;

/** Every event a current-contract endpoint can receive; `switch (event.type)` narrows `data.object`. */
export type WebhookEvent = { [T in keyof webhooks]: WebhookBody<webhooks[T]> }[keyof webhooks];
export type WebhookEventType = WebhookEvent['type'];

/** What an endpoint registered with `api_version: "legacy"` receives (earlier contract, docs/webhooks.md). */
export interface LegacyWebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}
