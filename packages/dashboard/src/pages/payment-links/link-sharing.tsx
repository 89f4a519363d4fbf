/**
 * How a merchant hands a link out: copy its URL, send it on WhatsApp, show its QR code and download
 * it (SVG for print, PNG). The QR code comes from `GET /payment-links/{id}/qr.svg` with the session
 * (the page's Content-Security-Policy allows images from data: URLs, not blob: ones).
 */
import { useState } from 'preact/hooks';
import { download, merchantText } from '../../api.js';
import { commonTexts } from '../../common-texts.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { useApi } from '../../components/use-api.js';
import { useTexts } from '../../i18n.js';
import { paymentLinkTexts } from './payment-link-texts.js';
import { whatsappShareUrl, type PaymentLink } from './payment-link.js';

export function LinkSharing({ link }: { link: PaymentLink }) {
  const t = useTexts(paymentLinkTexts);
  const c = useTexts(commonTexts);
  const [copied, setCopied] = useState(false);
  const qr = useApi(() => merchantText(`/payment-links/${link.id}/qr.svg`, { size: 256 }), [link.id]);
  const copy = async () => {
    await navigator.clipboard.writeText(link.url).catch(() => undefined);
    setCopied(true);
  };
  const [downloadError, setDownloadError] = useState<Error | undefined>();
  const save = (format: 'svg' | 'png') => {
    setDownloadError(undefined);
    download(`/payment-links/${link.id}/qr.${format}`, undefined, `akwe-link-${link.id}.${format}`).catch(setDownloadError);
  };
  return (
    <section class="card" aria-labelledby="share-title">
      <h2 id="share-title">{t('share')}</h2>
      <p>
        <code class="secret" data-link-url>
          {link.url}
        </code>
      </p>
      <div class="actions-row">
        <button type="button" class="button-secondary" onClick={() => void copy()}>
          {copied ? c('copied') : t('copy_link')}
        </button>
        <a class="button-secondary" href={whatsappShareUrl(link)} target="_blank" rel="noopener noreferrer">
          {t('whatsapp')}
        </a>
      </div>
      <span class="visually-hidden" role="status">
        {copied ? c('copied') : ''}
      </span>
      <h3>{t('qr')}</h3>
      {qr.error ? (
        <ErrorMessage error={qr.error} onRetry={qr.reload} />
      ) : qr.data ? (
        <img class="qr-code" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.data)}`} alt={t('qr_alt')} width={256} height={256} />
      ) : (
        <Loading />
      )}
      <div class="actions-row">
        <button type="button" class="button-secondary" onClick={() => save('svg')}>
          {t('download_svg')}
        </button>
        <button type="button" class="button-secondary" onClick={() => save('png')}>
          {t('download_png')}
        </button>
      </div>
      <ErrorMessage error={downloadError} />
    </section>
  );
}
