import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { defineTexts, useLanguage, useSetLanguage, useTexts } from '../../i18n.js';

const texts = defineTexts({ language: 'Langue' }, { language: 'Language' });

/** The narrow card the signed-out pages sit in, with the language switch above it. */
export function AuthCard({ title, children }: { title: string; children: ComponentChildren }) {
  const t = useTexts(texts);
  const language = useLanguage();
  const setLanguage = useSetLanguage();
  useEffect(() => {
    document.title = `${title} · Akwe`;
  }, [title]);
  return (
    <main class="auth" id="main">
      <div class="auth-top">
        <p class="brand">Akwe</p>
        <div class="switch" role="group" aria-label={t('language')}>
          <button type="button" lang="fr" aria-pressed={language === 'fr'} onClick={() => setLanguage('fr')}>
            Français
          </button>
          <button type="button" lang="en" aria-pressed={language === 'en'} onClick={() => setLanguage('en')}>
            English
          </button>
        </div>
      </div>
      <section class="card">
        <h1>{title}</h1>
        {children}
      </section>
    </main>
  );
}
