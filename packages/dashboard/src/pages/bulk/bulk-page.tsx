import { download } from '../../api.js';
import { useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { Page } from '../../components/page.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { BatchStatus } from './batch-status.js';
import { BulkUpload } from './bulk-upload.js';
import { bulkTexts, type Batch } from './bulk-texts.js';

/** Bulk payouts: import a CSV file (who may pay out), and the batches of the active environment. */
export function BulkPage() {
  const t = useTexts(bulkTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const can = useCan();
  return (
    <Page
      title={t('title')}
      actions={
        <button type="button" class="button-secondary" onClick={() => void download('/bulk-payments/template.csv', {}, 'akwe-bulk-payments-template.csv')}>
          {t('template')}
        </button>
      }
    >
      {can('payouts.create') ? <BulkUpload /> : null}
      <h2>{t('batches')}</h2>
      <DataList<Batch>
        path="/bulk-payments/"
        caption={t('batches')}
        query={{}}
        rowHref={(batch) => `/dashboard/bulk/${batch.id}`}
        columns={[
          { label: t('name'), render: (b) => b.name },
          { label: t('lines'), numeric: true, render: (b) => b.item_count },
          { label: t('total'), numeric: true, render: (b) => formatMinor(b.total_amount_minor, b.currency, language) },
          { label: c('status'), render: (b) => <BatchStatus status={b.status} /> },
          { label: c('created'), render: (b) => formatDateTime(b.created_at, language) },
        ]}
      />
    </Page>
  );
}
