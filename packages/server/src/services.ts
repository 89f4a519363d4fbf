/**
 * The composition root: storage adapters wired into core services. The HTTP app, the workers and
 * the CLI all build their services here, so they share one way of doing every operation.
 */
import type { OperatorCatalog } from './core/catalog/operator-catalog.js';
import { EventFactory } from './core/events/event-factory.js';
import { MerchantService } from './core/merchants/merchant-service.js';
import { ApiKeyCache } from './core/merchants/api-key-cache.js';
import { DEFAULT_API_KEY_CACHE_MS } from './config.js';
import { keyInvalidationsOver } from './storage/postgres/key-invalidations.js';
import type { IdempotencyStore } from './core/idempotency/idempotency-store.js';
import type { PaymentStore } from './core/payments/payment-store.js';
import { PaymentService } from './core/payments/payment-service.js';
import { PaymentTransitions } from './core/payments/payment-transitions.js';
import { RefundService } from './core/payments/refund-service.js';
import { RecordedCalls, type PhaseFaults } from './core/operators/recorded-call.js';
import { CheckoutService } from './core/checkout/checkout-service.js';
import { PaymentLinkService } from './core/payment-links/payment-link-service.js';
import { PaymentLinkRepository } from './storage/repositories/payment-link-repository.js';
import type { OperatorConnectors } from './core/operators/operator-connector.js';
import type { DiscrepancyStore, OperatorDiscrepancy } from './core/operators/operator-discrepancy.js';
import { DiscrepancyRepository } from './storage/repositories/discrepancy-repository.js';
import { OperatorRegistry } from './operators/operator-registry.js';
import { FloatRepository } from './storage/repositories/float-repository.js';
import { LowFloats } from './core/floats/low-floats.js';
import { FloatWatch } from './core/floats/float-watch.js';
import { FloatBoard } from './core/floats/float-board.js';
import { SandboxLedger } from './operators/sandbox/sandbox-ledger.js';
import { SandboxOperator } from './operators/sandbox/sandbox-operator.js';
import { PayoutService } from './core/payouts/payout-service.js';
import { BulkService } from './core/bulk/bulk-service.js';
import { BulkBatchRepository } from './storage/repositories/bulk-batch-repository.js';
import { PayoutRepository } from './storage/repositories/payout-repository.js';
import { TransferRepository } from './storage/repositories/transfer-repository.js';
import { SettlementRepository } from './storage/repositories/settlement-repository.js';
import { SettlementService } from './core/settlements/settlement-service.js';
import { DEFAULT_TRANSFER_LIMITS, TransferService, type TransferLimits } from './core/transfers/transfer-service.js';
import { SettlementAccountRepository } from './storage/repositories/settlement-account-repository.js';
import { DEFAULT_SETTLEMENT_ACCOUNT_COOLING, SettlementAccountService, type SettlementAccountCooling } from './core/settlements/settlement-account-service.js';
import { SettlementScheduleService } from './core/settlements/settlement-schedule-service.js';
import { SettlementScheduleRepository } from './storage/repositories/settlement-schedule-repository.js';
import { WebhookService } from './core/webhooks/webhook-service.js';
import type { WebhookStore } from './core/webhooks/webhook-store.js';
import { ResponseSealing } from './storage/sealed-responses.js';
import { SecretBox } from './storage/secret-box.js';
import { WebhookRepository } from './storage/repositories/webhook-repository.js';
import type { Clock, EventStore, IdSource } from './core/ports.js';
import { systemClock } from './core/shared/clock.js';
import { newId } from './core/shared/ids.js';
import { WorkSignals } from './core/shared/work-signals.js';
import { DEFAULT_SANDBOX_FLOAT_MINOR, type LedgerReader } from './core/ledger/ledger.js';
import { LedgerRepository } from './storage/repositories/ledger-repository.js';
import type { AkweDatabase } from './storage/database.js';
import { ApiKeyRepository } from './storage/repositories/api-key-repository.js';
import { EventRepository } from './storage/repositories/event-repository.js';
import { IdempotencyRepository } from './storage/repositories/idempotency-repository.js';
import { MerchantRepository } from './storage/repositories/merchant-repository.js';
import { PaymentRepository } from './storage/repositories/payment-repository.js';
import { AkweMetrics } from './metrics/akwe-metrics.js';
import { MeteredOperators } from './metrics/metered-operators.js';
import { contractVersions } from './http/contracts/index.js';
import { ExportService } from './core/exports/export-service.js';
import { ExportQueries } from './storage/repositories/export-queries.js';
import { DashboardDevelopers } from './core/dashboard/dashboard-developers.js';
import { DashboardOverview } from './core/dashboard/dashboard-overview.js';
import { PaymentVolumeRepository } from './storage/repositories/payment-volume-repository.js';
import { RevenueRepository } from './storage/repositories/revenue-repository.js';
import { RevenueReports } from './core/revenue/revenue-report.js';
import { noProviderCosts, type ProviderCosts } from './core/revenue/provider-costs.js';
import { DashboardService } from './core/dashboard/dashboard-service.js';
import type { Mailer } from './core/dashboard/mailer.js';
import { ApprovalNotices } from './core/approvals/approval-notices.js';
import { SessionTokens } from './core/dashboard/session-tokens.js';
import { SIGN_IN_THROTTLE_RULES, SignInThrottle } from './core/dashboard/sign-in-throttle.js';
import { DashboardRepository } from './storage/repositories/dashboard-repository.js';
import { TestEventRepository } from './storage/repositories/test-event-repository.js';
import { join, resolve } from 'node:path';
import { BackOffice } from './core/admin/back-office.js';
import { ReconciliationService } from './core/reconciliation/reconciliation-service.js';
import { reportFormats } from './operators/report-formats.js';
import { ReconciliationRepository } from './storage/repositories/reconciliation-repository.js';
import { PlatformAdmins } from './core/admin/platform-admins.js';
import { KycService } from './core/kyc/kyc-service.js';
import { KycDocumentVault } from './storage/kyc-document-vault.js';
import { KycRepository } from './storage/repositories/kyc-repository.js';
import { PlatformAdminRepository } from './storage/repositories/platform-admin-repository.js';
import { ApprovalService } from './core/approvals/approval-service.js';
import { ApprovalRepository } from './storage/repositories/approval-repository.js';

export interface Services {
  database: AkweDatabase;
  catalog: OperatorCatalog;
  clock: Clock;
  merchants: MerchantService;
  events: EventStore;
  paymentStore: PaymentStore;
  payments: PaymentService;
  refunds: RefundService;
  idempotency: IdempotencyStore;
  webhookStore: WebhookStore;
  webhooks: WebhookService;
  /** Wakes the workers when work commits (and, through a bridge, other processes' workers). */
  signals: WorkSignals;
  ledger: LedgerReader;
  payouts: PayoutService;
  transfers: TransferService;
  settlements: SettlementService;
  /** Where each merchant's settlements go (wallets and bank accounts), each usable after its cooling period. */
  settlementAccounts: SettlementAccountService;
  /** Settlement schedules: their settings, and the runs the worker makes of them. */
  settlementSchedules: SettlementScheduleService;
  bulk: BulkService;
  /** CSV exports of payments, payouts and balance transactions, read page by page. */
  exports: ExportService;
  /** The operators by environment (the sandbox for test), for tests that look inside the sandbox. */
  operators: OperatorConnectors;
  /** Operator answers the state machines refused, for a person (akwe reconcile discrepancies). */
  discrepancies: DiscrepancyStore;
  /** The customer's side of hosted payments (the checkout page). */
  checkout: CheckoutService;
  /** Payment links and their public pages (docs/payment-links.md). */
  paymentLinks: PaymentLinkService;
  /** The server's secret (AKWE_SECRET); keys the checkout page's form tokens. */
  serverSecret: () => string;
  /** This process's Prometheus metrics (its own registry). */
  metrics: AkweMetrics;
  /** Dashboard users, sessions, invitations and roles (docs/dashboard.md). */
  dashboard: DashboardService;
  /** The dashboard's developers section: API keys, webhook endpoints, the audit log. */
  dashboardDevelopers: DashboardDevelopers;
  /** KYC submissions and their review (docs/dashboard.md "KYC"). */
  kyc: KycService;
  /** KYC documents, sealed under <data dir>/kyc. */
  kycDocuments: KycDocumentVault;
  /** Who may use the back office (granted from the CLI). */
  platformAdmins: PlatformAdmins;
  /** The back office's merchants, discrepancies and operators. */
  backOffice: BackOffice;
  /** Providers' reports matched against our records (docs/operations.md "Reconciliation"). */
  reconciliation: ReconciliationService;
  dashboardOverview: DashboardOverview;
  /** Maker-checker for live money-out submitted from the dashboard. */
  approvals: ApprovalService;
  /** Provider floats (docs/operations.md "Floats"): the worker's reads, the back office's view, the routes low on float. */
  floats: { watch: FloatWatch; board: FloatBoard; low: LowFloats; store: FloatRepository };
  /** Platform revenue: the fees accounts per day, operator, route or merchant, with the providers' costs. */
  revenue: RevenueReports;
}

export function createServices(options: {
  database: AkweDatabase;
  catalog: OperatorCatalog;
  clock?: Clock;
  newId?: IdSource;
  /** Operator adapters per environment; the sandbox for test and the unconfigured live gateway by default. */
  operators?: OperatorConnectors;
  /** The server's secret (AKWE_SECRET), asked for only when a stored webhook secret is sealed or opened. */
  serverSecret?: () => string;
  /** API_KEY_CACHE_MS: how long an authenticated key is kept in memory (default 1 s; 0: off). */
  apiKeyCacheMs?: number;
  /** IDEMPOTENCY_LEASE_SECONDS: how long an operator call's run is presumed alive. */
  leaseSeconds?: number;
  /** Test-only crash points between recorded phases. */
  faults?: PhaseFaults;
  /** Centimes a test balance starts with (SANDBOX_FLOAT). */
  sandboxFloatMinor?: number;
  /** How long a sandbox payout stays PROCESSING (SANDBOX_PAYOUT_DELAY_MS). */
  sandboxPayoutDelayMs?: number;
  /** How often a payout in PROCESSING is asked about (ms). */
  payoutCheckIntervalMs?: number;
  /** The shortest wait between two reconciliation checks of a live payment (ms). */
  paymentCheckMinIntervalMs?: number;
  /** PAYMENT_EXPIRY_GRACE_SECONDS (ms) and PAYMENT_LATE_CHECK_HOURS (ms): live payments at and after expiry. */
  paymentExpiryGraceMs?: number;
  paymentLateCheckWindowMs?: number;
  /** Told of each new operator discrepancy (the server logs it). */
  onDiscrepancy?: (discrepancy: OperatorDiscrepancy) => void;
  /** Lines per bulk batch (BULK_MAX_LINES, default 10 000). */
  bulkMaxLines?: number;
  /** Per-transfer and per-day transfer limits (TRANSFER_MAX_MINOR, TRANSFER_DAILY_MAX_MINOR). */
  transferLimits?: TransferLimits;
  /** How long a new or changed settlement account waits, live and test (SETTLEMENT_ACCOUNT_COOLING_MS, SETTLEMENT_ACCOUNT_TEST_COOLING_MS). */
  settlementAccountCooling?: SettlementAccountCooling;
  /** Rows per database read of a CSV export (default 1000; tests make it small to cross pages). */
  exportPageSize?: number;
  /** Default: a registry of its own with the storage gauges and without the process metrics. */
  metrics?: AkweMetrics;
  /** Where the dashboard's emails go (src/notifications/configured-mailer.ts); none: sending one fails. */
  mailer?: Mailer;
  /** PUBLIC_URL, for the links in the dashboard's emails. */
  publicUrl?: string;
  /** AKWE_DATA_DIR: KYC documents go under its kyc/ folder (default ./data). */
  dataDir?: string;
  /** Told when a dashboard email sent after its answer (a password reset's) fails (the server logs it). */
  onMailError?: (error: unknown) => void;
  /** How long a money-out request waits for its approval (APPROVAL_EXPIRY_HOURS; default 72 hours). */
  approvalExpiryMs?: number;
  /** How often each live route's float is read (FLOAT_READ_INTERVAL_SECONDS, in ms). */
  floatReadIntervalMs?: number;
  /** Told when a low-float alert email could not be sent (the worker logs it); the alert stays recorded. */
  onFloatAlertMailError?: (error: unknown) => void;
  /** What each route's provider charges (PROVIDER_COSTS_FILE), for the revenue report; none by default. */
  providerCosts?: ProviderCosts;
}): Services {
  const clock = options.clock ?? systemClock;
  const ids = options.newId ?? newId;
  const { db, capabilities } = options.database;
  const serverSecret =
    options.serverSecret ??
    (() => {
      throw new Error('no server secret: set AKWE_SECRET (or AKWE_DEV) to manage webhook secrets');
    });
  const secretBox = new SecretBox(serverSecret);
  const idempotency = new IdempotencyRepository(db, new ResponseSealing(secretBox));
  const signals = new WorkSignals();
  const ledger = new LedgerRepository(db, ids, clock, options.sandboxFloatMinor ?? DEFAULT_SANDBOX_FLOAT_MINOR);
  const paymentStore = new PaymentRepository(db, capabilities, idempotency, ledger, signals);
  const metrics = options.metrics ?? new AkweMetrics({ database: options.database });
  const operators = options.operators ?? new OperatorRegistry({ test: new SandboxOperator(new SandboxLedger(), { payoutDelayMs: options.sandboxPayoutDelayMs, clock }) });
  // The services call operators through the meter; `services.operators` stays the connectors themselves.
  const meteredOperators = new MeteredOperators(operators, metrics);
  const onDiscrepancy = (discrepancy: OperatorDiscrepancy) => {
    metrics.discrepancies.inc({ resource: discrepancy.resourceType });
    options.onDiscrepancy?.(discrepancy);
  };
  const eventFactory = new EventFactory(clock, ids);
  const discrepancies = new DiscrepancyRepository(db);
  const events = new EventRepository(db);
  const webhookStore = new WebhookRepository(db, capabilities, secretBox, idempotency, signals);
  const merchantRows = new MerchantRepository(db, capabilities);
  const merchants = new MerchantService({
    merchants: merchantRows,
    apiKeys: new ApiKeyRepository(db),
    clock,
    newId: ids,
    keyCache: new ApiKeyCache(options.apiKeyCacheMs ?? DEFAULT_API_KEY_CACHE_MS),
    keyInvalidations: options.database.notifications && keyInvalidationsOver(options.database.notifications),
    onKeyUseWriteFailure: () => metrics.keyUseWriteFailures.inc(),
  });
  // One lease and one set of crash points for every operator call (payments, refunds, payouts).
  const calls = new RecordedCalls({ clock, leaseSeconds: options.leaseSeconds, faults: options.faults });
  const transitions = new PaymentTransitions({
    catalog: options.catalog,
    events: eventFactory,
    clock,
    checkMinIntervalMs: options.paymentCheckMinIntervalMs,
    lateCheckWindowMs: options.paymentLateCheckWindowMs,
  });
  const refunds = new RefundService({ store: paymentStore, catalog: options.catalog, operators: meteredOperators, events: eventFactory, clock, newId: ids, calls, transitions });
  const payoutRows = new PayoutRepository(db, capabilities, idempotency, ledger, signals);
  const floatStore = new FloatRepository(db);
  const lowFloats = new LowFloats(() => floatStore.lowRouteLabels(), Date.now);
  const payouts = new PayoutService({
    store: payoutRows,
    catalog: options.catalog,
    operators: meteredOperators,
    events: eventFactory,
    clock,
    newId: ids,
    calls,
    checkIntervalMs: options.payoutCheckIntervalMs,
    discrepancies,
    onDiscrepancy,
    lowFloat: (routeLabel) => lowFloats.isLow(routeLabel),
  });
  const settlementRows = new SettlementRepository(db, idempotency, ledger, payoutRows, signals);
  const settlementAccountRows = new SettlementAccountRepository(db, idempotency, signals);
  const settlementAccounts = new SettlementAccountService({
    store: settlementAccountRows,
    catalog: options.catalog,
    events: eventFactory,
    clock,
    newId: ids,
    cooling: options.settlementAccountCooling ?? DEFAULT_SETTLEMENT_ACCOUNT_COOLING,
  });
  const settlements = new SettlementService({
    store: settlementRows,
    accounts: settlementAccounts,
    ledger,
    statementLines: (settlementId, page) => settlementRows.statementPage(settlementId, page),
    payouts,
    catalog: options.catalog,
    events: eventFactory,
    clock,
    newId: ids,
    pageSize: options.exportPageSize,
  });
  const services: Omit<
    Services,
    | 'checkout'
    | 'paymentLinks'
    | 'serverSecret'
    | 'metrics'
    | 'dashboard'
    | 'dashboardDevelopers'
    | 'dashboardOverview'
    | 'kyc'
    | 'kycDocuments'
    | 'platformAdmins'
    | 'backOffice'
    | 'revenue'
    | 'reconciliation'
    | 'approvals'
    | 'floats'
  > = {
    database: options.database,
    catalog: options.catalog,
    clock,
    merchants,
    events,
    idempotency,
    paymentStore,
    payments: new PaymentService({
      store: paymentStore,
      catalog: options.catalog,
      operators: meteredOperators,
      events: eventFactory,
      clock,
      newId: ids,
      calls,
      transitions,
      refunds,
      discrepancies,
      onDiscrepancy,
      expiryGraceMs: options.paymentExpiryGraceMs,
    }),
    discrepancies,
    webhookStore,
    webhooks: new WebhookService({ store: webhookStore, events, clock, newId: ids, contracts: contractVersions }),
    signals,
    ledger,
    exports: new ExportService(new ExportQueries(db), options.exportPageSize),
    operators,
    payouts,
    transfers: new TransferService({
      store: new TransferRepository(db, idempotency, ledger, signals),
      ledger,
      merchants: merchantRows,
      events: eventFactory,
      clock,
      newId: ids,
      limits: options.transferLimits ?? DEFAULT_TRANSFER_LIMITS,
    }),
    settlementAccounts,
    settlements,
    settlementSchedules: new SettlementScheduleService({
      store: new SettlementScheduleRepository(db, capabilities),
      accounts: settlementAccountRows,
      settlements,
      ledger,
      merchants: merchantRows,
      clock,
    }),
    refunds,
    bulk: new BulkService({
      store: new BulkBatchRepository(db, idempotency, signals),
      events: eventFactory,
      catalog: options.catalog,
      clock,
      newId: ids,
      maxLines: options.bulkMaxLines ?? 10_000,
      payouts,
      ledger,
      merchants,
    }),
  };
  const checkout = new CheckoutService({ store: paymentStore, payments: services.payments, merchants, catalog: options.catalog, clock });
  const paymentLinks = new PaymentLinkService({
    store: new PaymentLinkRepository(db, idempotency, signals),
    payments: services.payments,
    merchants,
    catalog: options.catalog,
    events: eventFactory,
    clock,
    newId: ids,
  });
  const dashboardStore = new DashboardRepository(db, capabilities);
  const dashboardMailer: Mailer = options.mailer ?? { send: () => Promise.reject(new Error('no mailer configured for the dashboard')) };
  const dashboard = new DashboardService({
    store: dashboardStore,
    merchants,
    mailer: dashboardMailer,
    tokens: new SessionTokens(serverSecret, clock),
    throttle: new SignInThrottle(clock, SIGN_IN_THROTTLE_RULES),
    sealer: secretBox,
    clock,
    newId: ids,
    publicUrl: options.publicUrl ?? 'http://localhost:8080',
    onMailError: options.onMailError,
  });
  const dashboardDevelopers = new DashboardDevelopers({
    store: dashboardStore,
    merchants,
    webhooks: services.webhooks,
    clock,
    newId: ids,
    contracts: contractVersions,
    testEvents: new TestEventRepository(db),
  });
  const kycDocuments = new KycDocumentVault(join(resolve(options.dataDir ?? './data'), 'kyc'), serverSecret);
  const publicUrl = options.publicUrl ?? 'http://localhost:8080';
  const kyc = new KycService({
    store: new KycRepository(db),
    files: kycDocuments,
    merchants,
    users: dashboardStore,
    mailer: dashboardMailer,
    events: eventFactory,
    clock,
    newId: ids,
    publicUrl,
  });
  const platformAdmins = new PlatformAdmins({ store: new PlatformAdminRepository(db), users: dashboardStore, clock, newId: ids });
  const backOffice = new BackOffice({ merchants, discrepancies, catalog: options.catalog, operators, users: dashboardStore, clock, newId: ids });
  const reconciliation = new ReconciliationService({ store: new ReconciliationRepository(db), formats: reportFormats, clock, newId: ids });
  const dashboardOverview = new DashboardOverview({ volumes: new PaymentVolumeRepository(db), clock });
  const approvals = new ApprovalService({
    store: new ApprovalRepository(db),
    audit: dashboardStore,
    payouts,
    bulk: services.bulk,
    transfers: services.transfers,
    settlements: services.settlements,
    refunds: services.refunds,
    merchants,
    clock,
    newId: ids,
    expiryMs: options.approvalExpiryMs,
    notices: new ApprovalNotices({ members: dashboardStore, merchants, mailer: dashboardMailer, publicUrl, onMailError: options.onMailError }),
  });
  const floats = {
    store: floatStore,
    low: lowFloats,
    board: new FloatBoard({ store: floatStore, catalog: options.catalog, connectors: operators }),
    watch: new FloatWatch({
      store: floatStore,
      catalog: options.catalog,
      // Metered: each read counts in akwe_operator_calls_total as the operation readBalance.
      connectors: meteredOperators,
      lowFloats,
      adminEmails: async () => (await platformAdmins.list()).map((admin) => admin.email),
      mailer: dashboardMailer,
      clock,
      newId: ids,
      readIntervalMs: options.floatReadIntervalMs,
      publicUrl,
      onMailError: options.onFloatAlertMailError,
    }),
  };
  return {
    ...services,
    floats,
    checkout,
    paymentLinks,
    serverSecret,
    metrics,
    dashboard,
    dashboardDevelopers,
    dashboardOverview,
    kyc,
    kycDocuments,
    platformAdmins,
    backOffice,
    reconciliation,
    approvals,
    revenue: new RevenueReports(new RevenueRepository(db), options.providerCosts ?? noProviderCosts, { store: dashboardStore, clock, newId: ids }),
  };
}
