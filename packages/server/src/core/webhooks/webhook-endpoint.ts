import type { Environment } from '../shared/environment.js';

/** A webhook contract version; the contract registry lists them (ContractVersions in ports.ts). */
export type WebhookApiVersion = string;

/** A merchant's receiver for one environment. Secrets are plaintext here; storage keeps them encrypted. */
export interface WebhookEndpoint {
  id: string;
  merchantId: string;
  environment: Environment;
  url: string;
  description: string | null;
  enabled: boolean;
  /** Event types it receives: exact (`collect.payment.completed`), a family (`collect.payment.*`), or empty / `*` for all. */
  eventTypes: string[];
  apiVersion: WebhookApiVersion;
  secret: string;
  /** The secret before the last rotation; it keeps signing (a second v1) until it expires. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  disabledReason: string | null;
  /** Deliveries in flight at once to it; null: the default (delivery-budgets.ts). */
  maxInFlight: number | null;
  createdAt: string;
  updatedAt: string;
}

export function subscribes(endpoint: Pick<WebhookEndpoint, 'eventTypes'>, type: string): boolean {
  if (endpoint.eventTypes.length === 0) return true;
  return endpoint.eventTypes.some((pattern) => pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))));
}

/** Secrets that sign a delivery now: the current one, and the previous one during its overlap. */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, now: Date): string[] {
  const overlap = endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && Date.parse(endpoint.previousSecretExpiresAt) > now.getTime();
  return overlap ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

export const deliveryStatuses = ['pending', 'delivering', 'retrying', 'succeeded', 'exhausted', 'cancelled'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** One event on its way to one destination (an endpoint, or the payment's callback_url). */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  /** The endpoint id, or `callback`. Never changes, even when the endpoint is deleted. */
  destination: string;
  /** What its receiver's in-flight budget counts: the endpoint id, or `callback:<url>`. */
  stream: string;
  targetHost: string;
  endpointId: string | null;
  targetUrl: string;
  merchantId: string;
  environment: Environment;
  apiVersion: WebhookApiVersion;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string;
  lockedUntil: string | null;
  claimToken: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  succeededAt: string | null;
}

export interface DeliveryAttempt {
  id: string;
  deliveryId: string;
  attemptNumber: number;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

export const CALLBACK_DESTINATION = 'callback';
