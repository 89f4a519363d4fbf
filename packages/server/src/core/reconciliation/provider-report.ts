/**
 * A provider's report (statement, transaction export) as Akwe reads it: one line per money
 * movement the provider recorded, in our words. Each provider's parser (operators/<family>/
 * <family>-report.ts) turns its own columns into these lines; the matcher never sees a provider's
 * format.
 */
export type ReportResourceType = 'payment' | 'payout' | 'refund';

/** Where the provider says the movement stands: only a completed one moved money. */
export type ReportStatus = 'completed' | 'failed' | 'pending';

export interface ProviderReportLine {
  /** The line's number in the file as a spreadsheet shows it (the header is 1). */
  row: number;
  resourceType: ReportResourceType;
  /** Our id as the provider holds it (every connector sends it: depositId, externalId, client_reference, merchant_reference, order_id); null when the line has none. */
  akweId: string | null;
  /** The provider's own id of the movement; null when the report has none. */
  providerReference: string | null;
  amountMinor: number;
  currency: string;
  status: ReportStatus;
  /** When the provider recorded it, an ISO instant (UTC). */
  occurredAt: string;
}

/** A provider's report format: its name (the connector family) and its parser. */
export interface ProviderReportFormat {
  provider: string;
  /** The lines of the file; throws AkweError `invalid_report` (every line at fault in `details`) when it cannot be read. */
  parse(text: string): ProviderReportLine[];
}
