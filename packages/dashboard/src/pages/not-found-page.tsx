import { Page } from '../components/page.js';
import { defineTexts, useTexts } from '../i18n.js';

const texts = defineTexts({ title: 'Page introuvable', back: 'Revenir à l’accueil' }, { title: 'Page not found', back: 'Back to home' });

export function NotFoundPage() {
  const t = useTexts(texts);
  return (
    <Page title={t('title')}>
      <a href="/dashboard">{t('back')}</a>
    </Page>
  );
}
