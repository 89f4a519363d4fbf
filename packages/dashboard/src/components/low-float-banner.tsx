import { adminApi } from '../api.js';
import { useTexts } from '../i18n.js';
import { floatTexts } from '../pages/admin/float-texts.js';
import type { RouteFloat } from '../pages/admin/route-float.js';
import { useApi } from './use-api.js';

/** For platform administrators: the routes low on float, on every page, with a link to the Floats page. */
export function LowFloatBanner() {
  const t = useTexts(floatTexts);
  const low = useApi(() => adminApi<{ data: RouteFloat[] }>('/floats', { query: { low: 'true' } }));
  const routes = low.data?.data ?? [];
  if (routes.length === 0) return null;
  return (
    <p class="float-banner" role="alert">
      {t('banner', { routes: routes.map((r) => r.route).join(', ') })} <a href="/admin/floats">{t('banner_link')}</a>
    </p>
  );
}
