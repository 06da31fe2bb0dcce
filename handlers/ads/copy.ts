// Ad copy rules (changelog entry 17): copy entries are { language, text }; language is given exactly when the ad has
// translations, and then names the source language or one the network translates into.
import { invalid } from '../../runtime/errors.js';

export interface CopyEntry { language?: string; text: string }
export interface Translations { source_language: string; automatic_languages: string[] }
export const COPY_FIELDS = ['primary_texts', 'headlines', 'descriptions'] as const;
export type CopyField = typeof COPY_FIELDS[number];
export type Copy = Record<CopyField, CopyEntry[]>;

export function checkTranslations(t: Translations | null): void {
  if (!t) return;
  if (t.automatic_languages.includes(t.source_language)) {
    throw invalid('automatic_languages must not repeat source_language', 'translations.automatic_languages');
  }
  if (new Set(t.automatic_languages).size !== t.automatic_languages.length) {
    throw invalid('automatic_languages must not repeat a language', 'translations.automatic_languages');
  }
}

export function checkCopy(copy: Copy, translations: Translations | null): void {
  checkTranslations(translations);
  const languages = translations ? new Set([translations.source_language, ...translations.automatic_languages]) : null;
  for (const field of COPY_FIELDS) {
    copy[field].forEach((entry, i) => {
      const param = `${field}[${i}].language`;
      if (!languages && entry.language !== undefined) throw invalid('language is given only when the ad has translations', param);
      if (languages && entry.language === undefined) throw invalid('An ad with translations names each entry\'s language', param);
      if (languages && !languages.has(entry.language!)) {
        throw invalid(`'${entry.language}' is neither the source language nor one of automatic_languages`, param);
      }
    });
  }
}

/** Entries as stored: only the keys the caller gave. */
export const storedCopy = (entries: CopyEntry[]) =>
  entries.map((e) => (e.language === undefined ? { text: e.text } : { language: e.language, text: e.text }));
