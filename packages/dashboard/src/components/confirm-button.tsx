/** An action with a confirmation step: the first press asks, the second does it. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { commonTexts } from '../common-texts.js';
import { useTexts } from '../i18n.js';

export function ConfirmButton({ label, question, onConfirm, busy, danger }: { label: string; question: ComponentChildren; onConfirm(): void; busy?: boolean; danger?: boolean }) {
  const t = useTexts(commonTexts);
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class={danger ? 'button-danger' : 'button'} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <div class="confirm" role="group" aria-label={label}>
      <p>{question}</p>
      <button
        type="button"
        class={danger ? 'button-danger' : 'button'}
        disabled={busy}
        onClick={() => {
          onConfirm();
          setAsking(false);
        }}
      >
        {t('confirm')}
      </button>
      <button type="button" class="button-secondary" onClick={() => setAsking(false)}>
        {t('cancel')}
      </button>
    </div>
  );
}
