/** One live route's provider float, as `GET /api/v1/admin/floats` answers it. */
export interface RouteFloat {
  route: string;
  operator: string;
  country: string;
  connector: string;
  pays_out: boolean;
  balance_minor: number | null;
  currency: string | null;
  read_at: string | null;
  threshold_minor: number | null;
  state: 'ok' | 'low' | 'no_threshold' | 'read_failed' | 'unread';
  low_since: string | null;
  last_error: string | null;
  last_error_at: string | null;
  expected_minor: number | null;
  expected_currency: string | null;
}
