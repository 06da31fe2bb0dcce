// The cards balance's money, by balanced entries (handlers/ledger/post.ts). The cards balance is a ledger of kind
// cards, one per account: `available` is what cards may spend, `held` what pending authorisations reserve (both
// floored at zero by the database). A top-up moves business available -> cards available; an approved
// authorisation cards available -> cards held (the floor refuses what the balance does not cover); settlement cards
// held -> the platform's card_clearing (owed to the card network); a reversal cards held -> cards available. Entry
// ids are the resource's and the step's, so a step re-run by a job cannot post twice.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { newId } from '../../runtime/ids.js';
import { ledgerOf, PLATFORM, postEntry } from '../ledger/index.js';

const FIND = `select id from ledger_accounts where kind = 'cards' and account_id = $1`;
const MAKE_OR_FIND = `with made as (
    insert into ledger_accounts (id, kind, account_id, title) values ($2, 'cards', $1, 'Cards balance')
    on conflict (account_id) where kind = 'cards' do nothing returning id)
  select id from made union all (${FIND}) limit 1`;

/** The account's cards balance, if it has one. */
export async function findCardsLedger(db: Knex, accountId: string): Promise<string | null> {
  const [row] = await query<{ id: string }>(db, FIND, [accountId]);
  return row?.id ?? null;
}

/** The account's cards balance, opened on first use, once (the unique index ledger_accounts_cards settles races;
 * a balance made by a transaction that commits after this statement began is found by a second read). */
export async function cardsLedgerOf(db: Knex, accountId: string): Promise<string> {
  const [row] = await query<{ id: string }>(db, MAKE_OR_FIND, [accountId, newId('ldgr_')]);
  return row?.id ?? (await findCardsLedger(db, accountId))!;
}

export async function postTopUp(db: Knex, topUp: { id: string; account_id: string; amount: number; currency: string }): Promise<void> {
  const business = await ledgerOf(db, topUp.account_id);
  const cards = await cardsLedgerOf(db, topUp.account_id);
  await postEntry(db, `${topUp.id}:top_up`, topUp.currency, [
    { ledger: business, bucket: 'available', amount: -topUp.amount },
    { ledger: cards, bucket: 'available', amount: topUp.amount },
  ]);
}

interface Movement { id: string; amount: number; currency: string }

/** Throws insufficient_funds (the floor) when the cards balance does not cover the amount. */
export async function postAuthorized(db: Knex, cards: string, t: Movement): Promise<void> {
  await postEntry(db, `${t.id}:authorized`, t.currency, [
    { ledger: cards, bucket: 'available', amount: -t.amount },
    { ledger: cards, bucket: 'held', amount: t.amount },
  ]);
}

export async function postSettled(db: Knex, cards: string, t: Movement): Promise<void> {
  const platform = await ledgerOf(db, PLATFORM);
  await postEntry(db, `${t.id}:settled`, t.currency, [
    { ledger: cards, bucket: 'held', amount: -t.amount },
    { ledger: platform, bucket: 'card_clearing', amount: t.amount },
  ]);
}

export async function postReversed(db: Knex, cards: string, t: Movement): Promise<void> {
  await postEntry(db, `${t.id}:reversed`, t.currency, [
    { ledger: cards, bucket: 'held', amount: -t.amount },
    { ledger: cards, bucket: 'available', amount: t.amount },
  ]);
}
