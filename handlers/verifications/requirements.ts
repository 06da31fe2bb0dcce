// What each kind of verification asks for: the requested_information a new verification starts with. Documents are
// answered with a file, field keys with a value (or an address for the address keys).
export type AnswerType = 'file' | 'value' | 'address';

export interface VerificationError { code: 'tax_id_mismatch' | 'document_unreadable' | 'identity_rejected'; reason: string }

export interface Requirement {
  id: string;
  requirement: string;
  label: string;
  answer_type: AnswerType;
  multiple: boolean | null;
  options: string[] | null;
  answered: boolean;
  errors: VerificationError[];
}

type Spec = [requirement: string, label: string, answerType: AnswerType, extra?: { multiple?: true; options?: string[] }];

const CATALOGUE: Record<'individual' | 'business' | 'ads_agreement', Spec[]> = {
  individual: [
    ['legal_name', 'Full legal name', 'value'],
    ['date_of_birth', 'Date of birth (YYYY-MM-DD)', 'value'],
    ['ssn', 'Social security number (9 digits)', 'value'],
    ['home_address', 'Home address', 'address'],
    ['government_id', 'Government-issued ID (front and back)', 'file', { multiple: true }],
  ],
  business: [
    ['business_name', 'Legal business name', 'value'],
    ['business_structure', 'Legal structure', 'value', { options: ['sole_proprietorship', 'single_member_llc', 'multi_member_llc', 'private_corporation', 'public_corporation', 'non_profit'] }],
    ['ein', 'Employer identification number (9 digits)', 'value'],
    ['business_address', 'Registered business address', 'address'],
    ['bank_statement', 'Bank statement from the last 3 months', 'file'],
  ],
  ads_agreement: [
    ['printed_name', 'Your printed name, as your signature', 'value'],
    ['ads_terms', 'I accept the advertising agreement', 'value', { options: ['accept'] }],
  ],
};

export function initialRequirements(set: keyof typeof CATALOGUE): Requirement[] {
  return CATALOGUE[set].map(([requirement, label, answer_type, extra]) => ({
    id: `req_${requirement}`, requirement, label, answer_type,
    multiple: extra?.multiple ?? null, options: extra?.options ?? null, answered: false, errors: [],
  }));
}

/** Formats a value must have, beyond options: what the sandbox (like a real reviewer) refuses at once. */
export const VALUE_FORMATS: Record<string, { pattern: RegExp; describe: string }> = {
  ssn: { pattern: /^\d{9}$/, describe: '9 digits' },
  ein: { pattern: /^\d{9}$/, describe: '9 digits' },
  date_of_birth: { pattern: /^\d{4}-\d{2}-\d{2}$/, describe: 'a date YYYY-MM-DD' },
};

/** The ads agreement's text version a signature accepts. */
export const ADS_AGREEMENT_VERSION = '2026-09-01';
