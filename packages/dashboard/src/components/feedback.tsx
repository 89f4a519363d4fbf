import { commonTexts } from '../common-texts.js';
import { useTexts } from '../i18n.js';

export function Loading() {
  const t = useTexts(commonTexts);
  return (
    <p class="muted" role="status">
      {t('loading')}
    </p>
  );
}

/** An error the person can read (the API's message and code), announced to screen readers. */
export function ErrorMessage({ error, onRetry }: { error: Error | undefined; onRetry?: () => void }) {
  const t = useTexts(commonTexts);
  if (!error) return null;
  const code = (error as { code?: string }).code;
  return (
    <div class="alert alert-error" role="alert">
      <p>
        {t('error', { message: error.message })}
        {code ? <code class="code"> {code}</code> : null}
      </p>
      {onRetry ? (
        <button type="button" class="button-secondary" onClick={onRetry}>
          {t('retry')}
        </button>
      ) : null}
    </div>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'success' | 'warning'; children: preact.ComponentChildren }) {
  return (
    <div class={`alert alert-${kind}`} role={kind === 'success' ? 'status' : undefined}>
      {children}
    </div>
  );
}
