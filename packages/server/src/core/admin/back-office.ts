import { auditEntry } from '../dashboard/dashboard-user.js';
import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import type { AuditAction, DashboardStore, DashboardUser, RequestOrigin } from '../dashboard/dashboard-user.js';
import { AkweError } from '../errors/index.js';
import type { Merchant, MerchantStatus } from '../merchants/merchant.js';
import type { MerchantService } from '../merchants/merchant-service.js';
import type { OperatorConnectors, OperatorHealth } from '../operators/operator-connector.js';
import type { DiscrepancyStore, OperatorDiscrepancy } from '../operators/operator-discrepancy.js';
import type { Clock } from '../shared/clock.js';
import type { Environment } from '../shared/environment.js';
import type { IdSource } from '../shared/ids.js';

export interface OperatorState {
  country: string;
  slug: string;
  name: string;
  environment: Environment;
  /** The best route's. */
  health: OperatorHealth;
  /** Each route in order, by its label (`mtn_bj/mtn-momo`), with its own breaker's health. */
  routes: Array<{ route: string; health: OperatorHealth }>;
}

export interface BackOfficeDeps {
  merchants: MerchantService;
  discrepancies: DiscrepancyStore;
  catalog: OperatorCatalog;
  operators: OperatorConnectors;
  /** The audit log. */
  users: DashboardStore;
  clock: Clock;
  newId: IdSource;
}

/**
 * The platform administrators' view of every merchant (docs/dashboard.md "Back office"):
 * merchants and their statuses, suspension and reactivation (with a reason, in the audit log),
 * the operators' discrepancies and the operators that are failing. KYC review is KycService's.
 */
export class BackOffice {
  constructor(private readonly deps: BackOfficeDeps) {}

  async merchants(filter: { status?: MerchantStatus; kycStatus?: Merchant['kycStatus'] }): Promise<Merchant[]> {
    const all = await this.deps.merchants.listMerchants();
    return all.filter((m) => (filter.status === undefined || m.status === filter.status) && (filter.kycStatus === undefined || m.kycStatus === filter.kycStatus)).reverse();
  }

  /** A suspended merchant's keys keep authenticating; what they may do is what the API allows a suspended account. */
  suspend(admin: DashboardUser, merchantId: string, reason: string, origin: RequestOrigin): Promise<Merchant> {
    return this.setStatus(admin, merchantId, 'suspended', reason, origin);
  }

  reactivate(admin: DashboardUser, merchantId: string, reason: string, origin: RequestOrigin): Promise<Merchant> {
    return this.setStatus(admin, merchantId, 'active', reason, origin);
  }

  discrepancies(filter: { unresolvedOnly: boolean; limit: number }): Promise<OperatorDiscrepancy[]> {
    return this.deps.discrepancies.list(filter);
  }

  /** Every catalog operator in both environments, with its connector's health; `failing` keeps the others out. */
  operators(filter: { failingOnly: boolean }): OperatorState[] {
    const states = this.deps.catalog.countries().flatMap((country) =>
      country.operators.flatMap((operator) =>
        (['live', 'test'] as const).map((environment) => ({
          country: country.code,
          slug: operator.slug,
          name: operator.label,
          environment,
          health: this.deps.operators.health(environment, operator.gatewayCode),
          routes: this.deps.operators.routesFor(environment, operator.gatewayCode).map((route) => ({ route: route.label, health: route.connector.health?.() ?? 'available' })),
        })),
      ),
    );
    // Failing: no route at all, or one route down even while another carries the traffic.
    return filter.failingOnly ? states.filter((s) => s.health !== 'available' || s.routes.some((r) => r.health !== 'available')) : states;
  }

  private async setStatus(admin: DashboardUser, merchantId: string, status: MerchantStatus, reason: string, origin: RequestOrigin): Promise<Merchant> {
    const trimmed = reason.trim();
    if (trimmed.length === 0 || trimmed.length > 1000) throw AkweError.ofField('validation_error', 'reason', 'reason must be 1 to 1000 characters');
    const before = await this.deps.merchants.getMerchant(merchantId.toLowerCase());
    const updated = await this.deps.merchants.updateMerchant(before.id, { status }, { actor: `admin:${admin.id}` });
    if (before.status !== status) {
      await this.audit(status === 'suspended' ? 'admin.merchant_suspended' : 'admin.merchant_reactivated', admin.id, before.id, trimmed, origin);
    }
    return updated;
  }

  private async audit(action: AuditAction, userId: string, merchantId: string, target: string, origin: RequestOrigin): Promise<void> {
    await this.deps.users.insertAudit(auditEntry(this.deps, { action, userId, merchantId, target }, origin));
  }
}
