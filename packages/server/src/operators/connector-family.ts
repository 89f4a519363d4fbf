import type { TSchema } from 'typebox';
import type { CatalogCountry } from '../core/catalog/operator-catalog.js';
import type { OperatorConnector } from '../core/operators/operator-connector.js';
import type { Clock } from '../core/ports.js';
import type { SecretValue } from './secret-value.js';

/** What building one entry of the operators file may use. */
export interface ConnectorBuildContext {
  /** The catalog slug the entry is keyed by (e.g. mtn_bj). */
  slug: string;
  country: CatalogCountry;
  /** Resolves a secret field: inline, or `env:NAME`; a problem is recorded for `field` when it cannot. */
  secret(value: string, field: string): SecretValue;
  /** The server's public URL, which operator callbacks are sent to. */
  publicUrl: string;
  /** The server's secret (AKWE_SECRET), read when first needed: Wave's return URLs carry a proof made with it. */
  serverSecret: () => string;
  clock: Clock;
  fetchImpl?: typeof fetch;
}

/**
 * One operator family's entry point (operators/<family>/): the entry schema of the operators file,
 * the catalog operators (gateway codes) it can serve, and how an entry becomes a connector.
 */
export interface ConnectorFamily<Entry = unknown> {
  name: string;
  gatewayCodes: readonly string[];
  schema: TSchema;
  build(entry: Entry, context: ConnectorBuildContext): OperatorConnector;
  /**
   * How long one operation may take with this entry: each call's timeout (from its settings) and
   * the most calls one operation chains (a token, the call, a retry). Checked against the request
   * lease at start (lease-fit.ts): a family must state it.
   */
  callBudget(entry: Entry): CallBudget;
}

/** The timeout of one call to the operator, and the most calls one operation may chain. */
export interface CallBudget {
  timeoutMs: number;
  exchanges: number;
}
