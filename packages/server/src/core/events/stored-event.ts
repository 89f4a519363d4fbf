import type { Environment } from '../shared/environment.js';

/**
 * One outbox row: the envelope exactly as it will be delivered (`payload`), plus the columns
 * used to scope and find it. Written in the same transaction as the change it reports.
 */
export interface StoredEvent {
  id: string;
  merchantId: string;
  environment: Environment;
  type: string;
  createdAt: string;
  payload: Record<string, unknown>;
}
