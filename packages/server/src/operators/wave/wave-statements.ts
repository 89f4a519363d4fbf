/**
 * Wave's balance history as the daily reconciliation's statement (docs.wave.com "Balance &
 * Reconciliation API"): `GET /v1/transactions?date=<day>` answers a page of the wallet's movements
 * of that day (`items`) and `page_info` (`has_next_page`, `end_cursor`, passed back as `after`).
 * Every page is read and the items written as the report's CSV (wave-transactions-report.ts).
 */
import type { StatementFetch } from '../../core/operators/operator-connector.js';
import type { WaveClient } from './wave-client.js';
import { errorCode, WaveProtocolError } from './wave-responses.js';
import type { WaveSettings } from './wave-settings.js';
import { waveItemsCsv, type WaveTransactionItem } from './wave-transactions-report.js';

/** A day of one wallet in pages: far more than a day's movements of any business. */
const MAX_PAGES = 1_000;

export interface WaveTransactionPage {
  items: WaveTransactionItem[];
  /** The cursor of the next page, when there is one. */
  next: string | undefined;
}

export function transactionsQuery(day: string, after: string | undefined): { method: 'GET'; path: string; headers: Record<string, string> } {
  const query = new URLSearchParams({ date: day });
  if (after !== undefined) query.set('after', after);
  return { method: 'GET', path: `/v1/transactions?${query.toString()}`, headers: {} };
}

export function parseTransactionPage(body: unknown): WaveTransactionPage {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const items = record['items'];
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'object' && item !== null)) throw new WaveProtocolError('the transactions answer has no items list');
  const pageInfo = typeof record['page_info'] === 'object' && record['page_info'] !== null ? (record['page_info'] as Record<string, unknown>) : {};
  const cursor = pageInfo['end_cursor'];
  const next = pageInfo['has_next_page'] === true && typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
  return { items: items as WaveTransactionItem[], next };
}

export function waveStatements(settings: WaveSettings, client: WaveClient): StatementFetch {
  return {
    // An API key is bound to one business wallet: one statement per route.
    key: `wave:${settings.baseUrl}:${settings.slug}`,
    async fetch(day) {
      const items: WaveTransactionItem[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const response = await client.send(transactionsQuery(day, after));
        if (response.status !== 200) throw new WaveProtocolError(`the transactions of ${day} answered ${response.status} ${errorCode(response.body) ?? ''}`.trim());
        const read = parseTransactionPage(response.body);
        items.push(...read.items);
        if (read.next === undefined) return waveItemsCsv(items);
        after = read.next;
      }
      throw new WaveProtocolError(`the transactions of ${day} ran past ${MAX_PAGES} pages`);
    },
  };
}
