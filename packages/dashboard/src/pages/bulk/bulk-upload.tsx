/**
 * The CSV import: dropped on the zone or chosen with the file input, sent at once to the merchant
 * API's import route. A file with problems stores nothing: every bad line is listed with its
 * reason, and the fixed file is dropped again (a new Idempotency-Key each time, as it is a new file).
 */
import { useState } from 'preact/hooks';
import { ApiError, merchantApi, newIdempotencyKey, type ApiErrorDetail } from '../../api.js';
import { ErrorMessage, Notice } from '../../components/feedback.js';
import { Field, useAction } from '../../components/form.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { navigate } from '../../router.js';
import { bulkTexts, type Batch } from './bulk-texts.js';

export function BulkUpload() {
  const t = useTexts(bulkTexts);
  const language = useLanguage();
  const [name, setName] = useState(() => t('default_name', { date: new Date().toLocaleDateString(language === 'fr' ? 'fr-FR' : 'en-GB') }));
  const [over, setOver] = useState(false);
  const [problems, setProblems] = useState<{ file: string; details: ApiErrorDetail[] } | undefined>();
  const upload = useAction(async (file: File) => {
    setProblems(undefined);
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const batch = await merchantApi<Batch>('/bulk-payments/import_csv/', {
        method: 'POST',
        form,
        query: { name: name.trim() || file.name },
        idempotencyKey: newIdempotencyKey(),
      });
      navigate(`/dashboard/bulk/${batch.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'validation_error' && error.details?.length) {
        setProblems({ file: file.name, details: error.details });
        return;
      }
      throw error;
    }
  });
  const choose = (file: File | undefined) => {
    if (file) void upload.run(file);
  };

  return (
    <section aria-labelledby="upload-title">
      <h2 id="upload-title">{t('upload_title')}</h2>
      <Field label={t('batch_name')} name="name" maxLength={200} required value={name} onInput={(event: Event) => setName((event.currentTarget as HTMLInputElement).value)} />
      <div
        class="dropzone"
        data-over={over ? 'true' : 'false'}
        onDragOver={(event: DragEvent) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event: DragEvent) => {
          event.preventDefault();
          setOver(false);
          choose(event.dataTransfer?.files[0]);
        }}
      >
        <p>{t('drop_here')}</p>
        <Field
          label={t('file')}
          hint={t('file_hint')}
          type="file"
          name="file"
          accept=".csv,text/csv"
          disabled={upload.busy}
          onChange={(event: Event) => {
            const input = event.currentTarget as HTMLInputElement;
            choose(input.files?.[0]);
            // The same (fixed) file may be chosen again.
            input.value = '';
          }}
        />
      </div>
      {upload.busy ? <Notice>{t('uploading')}</Notice> : null}
      <ErrorMessage error={upload.error} />
      {problems ? <ProblemList file={problems.file} details={problems.details} /> : null}
    </section>
  );
}

function ProblemList({ file, details }: { file: string; details: ApiErrorDetail[] }) {
  const t = useTexts(bulkTexts);
  return (
    <div>
      <div class="alert alert-error" role="alert">
        <p>{t('problems', { count: details.length, name: file })}</p>
      </div>
      <table class="table">
        <caption class="visually-hidden">{t('problems_caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('row')}</th>
            <th scope="col">{t('field')}</th>
            <th scope="col">{t('problem')}</th>
          </tr>
        </thead>
        <tbody>
          {details.map((detail, index) => (
            <tr key={index}>
              <td data-label={t('row')}>{detail.row ?? t('whole_file')}</td>
              <td data-label={t('field')}>{detail.field}</td>
              <td data-label={t('problem')}>
                {detail.message}
                {detail.code ? (
                  <>
                    <br />
                    <code class="code">{detail.code}</code>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
