import type { FastifyPluginAsync } from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from '../../config.js';
import type { EventSubject, StoredEvent } from '../../core/events/stored-event.js';
import type { ReceivingLimit } from '../../core/ports.js';
import type { OperatorCatalog } from '../../core/catalog/operator-catalog.js';
import type { ApprovalService } from '../../core/approvals/approval-service.js';
import type { OperatorConnectors } from '../../core/operators/operator-connector.js';
import type { PaymentService } from '../../core/payments/payment-service.js';
import type { RefundService } from '../../core/payments/refund-service.js';
import type { PayoutService } from '../../core/payouts/payout-service.js';
import type { Clock } from '../../core/ports.js';
import type { DeliveryRenderOptions, RenderedDelivery } from '../../webhooks/webhook-delivery-job.js';
import type { DestinationUrlCheck } from '../shared/url-policy.js';

/**
 * The core services a contract's routes call: named here, not as the whole composition root
 * (services.ts), which imports the contracts registry itself; `Services` fits this shape.
 */
export interface ContractServices {
  catalog: OperatorCatalog;
  clock: Clock;
  operators: OperatorConnectors;
  approvals: ApprovalService;
  payments: PaymentService;
  refunds: RefundService;
  payouts: PayoutService;
}

/** What every contract's routes may use; each takes the parts it needs. */
export interface ContractRouteDeps {
  services: ContractServices;
  config: Config;
  /** Where a merchant-given URL may point (http/shared/url-policy.ts). */
  destinationUrls: DestinationUrlCheck;
}

/** An event family whose `data.object` this contract renders, for the OpenAPI `webhooks` section. */
export interface EventFamily {
  /** The types' common prefix: `collect.payment.`. */
  prefix: string;
  object: TSchema;
  /** Its name in descriptions: `payment`, `bulk payment batch`. */
  subject: string;
}

/** The event envelope's parts a contract owns: its object and event_version. */
export interface RenderedEventObject {
  version: string;
  object: object;
}

/**
 * One contract version: everything Akwe knows about it, from its folder. The registry
 * (http/contracts/index.ts) lists them; the app, the core and the delivery worker read them there.
 */
export interface ContractVersion {
  /** Its folder's name: `collect-2026-06`. */
  name: string;
  /** Its routes, registered inside /api/v1 in the registry's order. */
  routes: FastifyPluginAsync<ContractRouteDeps>;
  /** The events whose `data.object` it renders (by subject), with the event_version they carry. */
  events?: {
    version: string;
    subjects: readonly EventSubject['kind'][];
    families: readonly EventFamily[];
    object(subject: EventSubject, publicUrl: string): object;
  };
  /** A webhook `api_version` an endpoint may choose, and how a delivery is rendered in it. */
  webhook?: {
    apiVersion: string;
    /** Said in the OpenAPI description of `api_version`. */
    description?: string;
    /** Undefined: it carries every event. */
    limit?: ReceivingLimit;
    /** `envelope`: the event in the current event envelope, each object rendered by the contract owning its subject. */
    render(event: StoredEvent, options: DeliveryRenderOptions, envelope: (event: StoredEvent) => object): RenderedDelivery;
  };
}
