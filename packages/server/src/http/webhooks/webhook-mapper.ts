import { defaultDeliveryBudgets } from '../../core/webhooks/delivery-budgets.js';
import type { DeliveryAttempt, WebhookDelivery, WebhookEndpoint } from '../../core/webhooks/webhook-endpoint.js';

export function endpointToWire(endpoint: WebhookEndpoint, options: { withSecret?: boolean } = {}) {
  return {
    object: 'webhook_endpoint' as const,
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.eventTypes,
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    api_version: endpoint.apiVersion,
    max_in_flight: endpoint.maxInFlight ?? defaultDeliveryBudgets.perStream,
    environment: endpoint.environment,
    ...(options.withSecret ? { secret: endpoint.secret } : {}),
    previous_secret_expires_at: endpoint.previousSecretExpiresAt,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

export function deliveryToWire(delivery: WebhookDelivery & { attemptsLog?: DeliveryAttempt[] }) {
  return {
    object: 'webhook_delivery' as const,
    id: delivery.id,
    event_id: delivery.eventId,
    endpoint_id: delivery.endpointId,
    destination: delivery.destination,
    url: delivery.targetUrl,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.nextAttemptAt,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    succeeded_at: delivery.succeededAt,
    created_at: delivery.createdAt,
    updated_at: delivery.updatedAt,
    ...(delivery.attemptsLog
      ? {
          attempts_log: delivery.attemptsLog.map((a) => ({
            number: a.attemptNumber,
            attempted_at: a.attemptedAt,
            status_code: a.statusCode,
            duration_ms: a.durationMs,
            response_excerpt: a.responseExcerpt,
            error: a.error,
          })),
        }
      : {}),
  };
}
