import { StatusBadge } from '../../components/status-badge.js';
import { useTexts } from '../../i18n.js';
import { bulkTexts } from './bulk-texts.js';

/** A batch's status: the shared badge, with the two words only batches use. */
export function BatchStatus({ status }: { status: string }) {
  const t = useTexts(bulkTexts);
  if (status === 'draft') return <span class="badge badge-neutral">{t('draft')}</span>;
  if (status === 'partially_completed') return <span class="badge badge-bad">{t('partially_completed')}</span>;
  return <StatusBadge status={status} />;
}
