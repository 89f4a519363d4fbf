import { AkweError } from '../core/errors/index.js';
import type { OperatorGateway } from '../core/payments/operator-gateway.js';

function unavailable(): never {
  throw new AkweError('operator_unavailable', 'No live operator is configured on this server; nothing was charged.');
}

/** Live traffic with no operator contract configured: every call fails cleanly, nothing pretends to work. */
export class UnconfiguredLiveOperator implements OperatorGateway {
  readonly configured = false;
  startCollection = async () => unavailable();
  payCheckout = async () => unavailable();
  confirmOtp = async () => unavailable();
  queryStatus = async () => unavailable();
  refund = async () => unavailable();
  queryRefund = async () => unavailable();
  sendPayout = async () => unavailable();
  queryPayout = async () => unavailable();
}
