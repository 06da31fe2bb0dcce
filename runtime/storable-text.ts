// What PostgreSQL cannot store in text or jsonb: the NUL character and unpaired UTF-16 surrogates.
const UNSTORABLE = /\u0000|\p{Cs}/u;

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

export const hasNul = (text: string): boolean => text.includes('\u0000');
