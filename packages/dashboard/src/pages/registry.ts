/**
 * Every page of the dashboard and the back office: its address, what it shows, where it sits in
 * the menu and what the role needs to see it. A new page is one folder under pages/ and one line
 * here (packages/dashboard/README.md).
 */
import type { ComponentType } from 'preact';
import { AcceptInvitationPage } from './auth/accept-invitation-page.js';
import { PasswordResetPage } from './auth/password-reset-page.js';
import { SignInPage } from './auth/sign-in-page.js';
import { SignUpPage } from './auth/sign-up-page.js';
import { VerifyEmailPage } from './auth/verify-email-page.js';
import { BalancesPage } from './balances/balances-page.js';
import { HomePage } from './home/home-page.js';
import { PaymentDetailPage } from './payments/payment-detail-page.js';
import { PaymentsPage } from './payments/payments-page.js';
import { PayoutDetailPage } from './payouts/payout-detail-page.js';
import { PayoutsPage } from './payouts/payouts-page.js';
import { SecurityPage } from './account/security-page.js';
import { ApprovalsPage } from './approvals/approvals-page.js';
import { NewPayoutPage } from './approvals/new-payout-page.js';
import { BatchDetailPage } from './bulk/batch-detail-page.js';
import { BulkPage } from './bulk/bulk-page.js';
import { SettlementDetailPage, SettlementsPage } from './settlements/settlements-page.js';
import { TransfersPage } from './transfers/transfers-page.js';
import { PaymentLinksPage } from './payment-links/payment-links-page.js';
import { NewPaymentLinkPage } from './payment-links/new-payment-link-page.js';
import { PaymentLinkDetailPage } from './payment-links/payment-link-detail-page.js';
import { RefundsPage } from './refunds/refunds-page.js';
import { TeamPage } from './account/team-page.js';
import { AuditLogPage } from './audit/audit-log-page.js';
import { ApiKeysPage } from './developers/api-keys-page.js';
import { WebhookEndpointPage } from './developers/webhook-endpoint-page.js';
import { WebhooksPage } from './developers/webhooks-page.js';
import { ExportsPage } from './exports/exports-page.js';
import { KycPage } from './kyc/kyc-page.js';
import { lazyPage } from '../components/lazy-page.js';

// The back office's pages: fetched when an administrator opens one (each its own chunk).
const KycReviewPage = lazyPage(() => import('./admin/kyc-review-page.js').then((m) => m.KycReviewPage));
const KycSubmissionPage = lazyPage(() => import('./admin/kyc-submission-page.js').then((m) => m.KycSubmissionPage));
const MerchantsPage = lazyPage(() => import('./admin/merchants-page.js').then((m) => m.MerchantsPage));
const ReconciliationPage = lazyPage(() => import('./admin/reconciliation-page.js').then((m) => m.ReconciliationPage));
const ReconciliationRunPage = lazyPage(() => import('./admin/reconciliation-run-page.js').then((m) => m.ReconciliationRunPage));
const OperationsPage = lazyPage(() => import('./admin/operations-page.js').then((m) => m.OperationsPage));
const FloatsPage = lazyPage(() => import('./admin/floats-page.js').then((m) => m.FloatsPage));
const RevenuePage = lazyPage(() => import('./admin/revenue-page.js').then((m) => m.RevenuePage));

export type MenuSection = 'money' | 'developers' | 'account' | 'admin';

export interface PageEntry {
  path: string;
  component: ComponentType<{ params: Record<string, string> }>;
  /** In the menu, with its label in both languages. */
  menu?: { section: MenuSection; fr: string; en: string };
  /** Shown to people without a session (sign-in, sign-up, email links). */
  public?: boolean;
  /** The role must allow this action (docs/dashboard.md roles table); the server checks again. */
  needs?: string;
  /** Platform administrators only (/admin). */
  admin?: boolean;
}

export const pages: PageEntry[] = [
  { path: '/dashboard/sign-in', component: SignInPage, public: true },
  { path: '/dashboard/sign-up', component: SignUpPage, public: true },
  { path: '/dashboard/verify-email', component: VerifyEmailPage, public: true },
  { path: '/dashboard/password-reset', component: PasswordResetPage, public: true },
  { path: '/dashboard/accept-invitation', component: AcceptInvitationPage, public: true },
  { path: '/dashboard', component: HomePage, menu: { section: 'money', fr: 'Accueil', en: 'Home' } },
  { path: '/dashboard/payments', component: PaymentsPage, menu: { section: 'money', fr: 'Paiements', en: 'Payments' } },
  { path: '/dashboard/payments/:id', component: PaymentDetailPage },
  { path: '/dashboard/refunds', component: RefundsPage, menu: { section: 'money', fr: 'Remboursements', en: 'Refunds' } },
  { path: '/dashboard/payouts', component: PayoutsPage, menu: { section: 'money', fr: 'Décaissements', en: 'Payouts' } },
  { path: '/dashboard/payouts/:id', component: PayoutDetailPage },
  { path: '/dashboard/bulk', component: BulkPage, menu: { section: 'money', fr: 'Lots de décaissement', en: 'Bulk batches' } },
  { path: '/dashboard/bulk/:id', component: BatchDetailPage },
  { path: '/dashboard/approvals', component: ApprovalsPage, menu: { section: 'money', fr: 'Approbations', en: 'Approvals' } },
  { path: '/dashboard/approvals/new-payout', component: NewPayoutPage, needs: 'payouts.create' },
  { path: '/dashboard/balances', component: BalancesPage, menu: { section: 'money', fr: 'Soldes', en: 'Balances' } },
  { path: '/dashboard/settlements', component: SettlementsPage, menu: { section: 'money', fr: 'Règlements', en: 'Settlements' } },
  { path: '/dashboard/settlements/:id', component: SettlementDetailPage },
  { path: '/dashboard/payment-links', component: PaymentLinksPage, menu: { section: 'money', fr: 'Liens de paiement', en: 'Payment links' } },
  { path: '/dashboard/payment-links/new', component: NewPaymentLinkPage, needs: 'payments.create' },
  { path: '/dashboard/payment-links/:id', component: PaymentLinkDetailPage },
  { path: '/dashboard/transfers', component: TransfersPage, menu: { section: 'money', fr: 'Transferts', en: 'Transfers' } },
  { path: '/dashboard/exports', component: ExportsPage, menu: { section: 'money', fr: 'Exports', en: 'Exports' } },
  { path: '/dashboard/developers/keys', component: ApiKeysPage, menu: { section: 'developers', fr: 'Clés d’API', en: 'API keys' } },
  { path: '/dashboard/developers/webhooks', component: WebhooksPage, menu: { section: 'developers', fr: 'Webhooks', en: 'Webhooks' } },
  { path: '/dashboard/developers/webhooks/:id', component: WebhookEndpointPage },
  { path: '/dashboard/audit-log', component: AuditLogPage, menu: { section: 'account', fr: 'Journal d’audit', en: 'Audit log' }, needs: 'team.manage' },
  { path: '/dashboard/team', component: TeamPage, menu: { section: 'account', fr: 'Équipe', en: 'Team' } },
  { path: '/dashboard/security', component: SecurityPage, menu: { section: 'account', fr: 'Sécurité', en: 'Security' } },
  { path: '/dashboard/kyc', component: KycPage, menu: { section: 'account', fr: 'Dossier KYC', en: 'KYC' } },
  { path: '/admin', component: KycReviewPage, admin: true, menu: { section: 'admin', fr: 'Revue KYC', en: 'KYC review' } },
  { path: '/admin/kyc/:id', component: KycSubmissionPage, admin: true },
  { path: '/admin/merchants', component: MerchantsPage, admin: true, menu: { section: 'admin', fr: 'Marchands', en: 'Merchants' } },
  { path: '/admin/operators', component: OperationsPage, admin: true, menu: { section: 'admin', fr: 'Opérateurs', en: 'Operators' } },
  { path: '/admin/floats', component: FloatsPage, admin: true, menu: { section: 'admin', fr: 'Floats', en: 'Floats' } },
  { path: '/admin/revenue', component: RevenuePage, admin: true, menu: { section: 'admin', fr: 'Revenus', en: 'Revenue' } },
  { path: '/admin/reconciliation', component: ReconciliationPage, admin: true, menu: { section: 'admin', fr: 'Rapprochement', en: 'Reconciliation' } },
  { path: '/admin/reconciliation/:id', component: ReconciliationRunPage, admin: true },
];
