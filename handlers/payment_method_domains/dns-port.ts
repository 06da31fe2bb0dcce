// What the payment method domains area asks of DNS: the TXT records published under a name. The
// verify_payment_method_domain job (verification.ts) reads them with the domain locked and decides itself. The
// sandbox's DNS keeps its records in this database, so both calls take the caller's connection or transaction.
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';

export interface Dns {
  /** The values of the TXT records named `name`. */
  txtRecords(db: Knex, name: string): Promise<string[]>;
  /** Publishes a TXT record: the sandbox's stand-in for the owner's own DNS change
   * (POST /sandbox/payment_method_domains/{id}/publish_proof). */
  publishTxtRecord(db: Knex, name: string, value: string): Promise<void>;
}

export const dns = definePort<Dns>('DNS');
