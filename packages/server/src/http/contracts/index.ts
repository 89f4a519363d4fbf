/**
 * The contract versions Akwe speaks, one folder each. A new version is a new folder with its
 * `contract.ts` descriptor, plus one line in `contracts` below (docs/architecture.md).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { ContractVersions } from '../../core/ports.js';
import type { DeliveryRenderer } from '../../webhooks/webhook-delivery-job.js';
import { collect202606 } from './collect-2026-06/contract.js';
import { eventEnvelope } from './collect-2026-06/event-envelope.js';
import { collectLegacy } from './collect-legacy/contract.js';
import type { ContractRouteDeps, ContractVersion, EventFamily } from './contract-version.js';
import { payouts202501 } from './payouts-2025-01/contract.js';

/** Registered in this order inside /api/v1. */
export const contracts: readonly ContractVersion[] = [collect202606, collectLegacy, payouts202501];

/** The webhook version of an endpoint created without one, and of a payment's callback_url. */
const currentWebhooks = collect202606;

function webhookOf(apiVersion: string): NonNullable<ContractVersion['webhook']> | undefined {
  return contracts.find((contract) => contract.webhook?.apiVersion === apiVersion)?.webhook;
}

/** What the core is told about the versions (WebhookService). */
export const contractVersions: ContractVersions = {
  webhookVersions: contracts.flatMap((contract) => (contract.webhook ? [contract.webhook.apiVersion] : [])),
  defaultWebhookVersion: currentWebhooks.webhook!.apiVersion,
  callbackWebhookVersion: currentWebhooks.webhook!.apiVersion,
  receivingLimit: (apiVersion) => webhookOf(apiVersion)?.limit,
};

/** Every contract's routes, inside the authenticated /api/v1 scope. */
export const contractRoutes: FastifyPluginAsyncTypebox<ContractRouteDeps> = async (api, deps) => {
  for (const contract of contracts) await api.register(contract.routes, deps);
};

/** The event as GET /events and the current webhooks show it; the contract owning its subject renders the object. */
export function renderEvent(event: StoredEvent, publicUrl: string) {
  const owner = contracts.find((contract) => contract.events?.subjects.includes(event.subject.kind))?.events;
  if (!owner) throw new Error(`no contract renders ${event.subject.kind} events`);
  return eventEnvelope(event, { version: owner.version, object: owner.object(event.subject, publicUrl) });
}

/** The delivery worker's renderer: the event in its endpoint's webhook version. */
export const renderDelivery: DeliveryRenderer = (event, apiVersion, options) => {
  const webhook = webhookOf(apiVersion);
  if (!webhook) throw new Error(`no contract renders webhook version ${apiVersion}`);
  return webhook.render(event, options, (each) => renderEvent(each, options.publicUrl));
};

/** Each event family with its object schema and event_version (the OpenAPI `webhooks` section). */
export function eventFamilies(): (EventFamily & { version: string })[] {
  return contracts.flatMap((contract) => (contract.events ? contract.events.families.map((family) => ({ ...family, version: contract.events!.version })) : []));
}

/** The `api_version` choices' description (the webhook endpoint schemas). */
export function webhookVersionsDescription(): string {
  return contracts.flatMap((contract) => (contract.webhook?.description ? [contract.webhook.description] : [])).join(' ');
}
