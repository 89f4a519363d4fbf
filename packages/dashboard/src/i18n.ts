/**
 * Texts in French (the default) and English. Each page keeps its own texts beside it, made with
 * `defineTexts`, whose types make both languages carry the same keys.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export const languages = ['fr', 'en'] as const;
export type Language = (typeof languages)[number];

export interface Texts<K extends string> {
  fr: Record<K, string>;
  en: Record<K, string>;
}

export function defineTexts<K extends string>(fr: Record<K, string>, en: Record<K, string>): Texts<K> {
  return { fr, en };
}

export const LanguageContext = createContext<Language>('fr');

/** `{name}` in a text is replaced by `vars.name`. */
export function translate<K extends string>(texts: Texts<K>, language: Language, key: K, vars?: Record<string, string | number>): string {
  const text = texts[language][key];
  return vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : text;
}

export function useTexts<K extends string>(texts: Texts<K>): (key: K, vars?: Record<string, string | number>) => string {
  const language = useContext(LanguageContext);
  return (key, vars) => translate(texts, language, key, vars);
}

export function useLanguage(): Language {
  return useContext(LanguageContext);
}

/** Changes the language of the pages (and, signed in, of the user's emails); every page may call it. */
export const SetLanguageContext = createContext<(language: Language) => void>(() => undefined);

export function useSetLanguage(): (language: Language) => void {
  return useContext(SetLanguageContext);
}

const LANGUAGE_KEY = 'akwe.language';

/** The language the person picked in this browser, if they ever did. */
export function chosenLanguage(): Language | undefined {
  const saved = localStorage.getItem(LANGUAGE_KEY);
  return saved === 'en' || saved === 'fr' ? saved : undefined;
}

export function saveLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
}

/**
 * The language to show: the one picked in this browser, else the browser's own preference (the
 * first of navigator.languages that is French or English, the same list as Accept-Language), else
 * French.
 */
export function savedLanguage(): Language {
  const chosen = chosenLanguage();
  if (chosen) return chosen;
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const base = (tag ?? '').toLowerCase().split('-')[0];
    if (base === 'fr' || base === 'en') return base;
  }
  return 'fr';
}
