/** A secret the server shows once (an API key, a signing secret), with a copy button. */
import { useState } from 'preact/hooks';
import { commonTexts } from '../../common-texts.js';
import { Notice } from '../../components/feedback.js';
import { useTexts } from '../../i18n.js';

export function SecretOnce({ label, secret, warning }: { label: string; secret: string; warning: string }) {
  const c = useTexts(commonTexts);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret).catch(() => undefined);
    setCopied(true);
  };
  return (
    <Notice kind="warning">
      <p>
        <strong>{label}</strong>
      </p>
      <p>
        <code class="secret" data-secret>
          {secret}
        </code>
      </p>
      <p>{warning}</p>
      <button type="button" class="button-secondary" onClick={() => void copy()}>
        {copied ? c('copied') : c('copy')}
      </button>
      <span class="visually-hidden" role="status">
        {copied ? c('copied') : ''}
      </span>
    </Notice>
  );
}
