// The sandbox DNS: it does not query the internet's DNS but keeps its own TXT records (sandbox_dns_txt_records).
import type { Knex } from 'knex';
import type { Dns } from '../../handlers/payment_method_domains/index.js';

/** Stored timestamps are cut to milliseconds, as the API's are. */
const nowMs = (db: Knex): Knex.Raw => db.raw("date_trunc('milliseconds', now())");

export const sandboxDns: Dns = {
  async txtRecords(db, name) {
    const records: { value: string }[] = await db('sandbox_dns_txt_records').where({ name }).select('value');
    return records.map((r) => r.value);
  },
  async publishTxtRecord(db, name, value) {
    await db('sandbox_dns_txt_records').insert({ name, value }).onConflict(['name', 'value']).merge({ updated_at: nowMs(db) });
  },
};
