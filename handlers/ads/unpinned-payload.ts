// The seed (Events 6): ad webhooks to unpinned subscriptions name an ad's accounts external_accounts, although those
// subscriptions otherwise keep the earliest payloads (where the field is social_accounts, entry 11).
export function unpinnedAdPayload(schema: string | undefined, data: unknown): unknown {
  if (schema !== 'Ad' || !data || typeof data !== 'object' || !('social_accounts' in data)) return data;
  const { social_accounts, ...rest } = data as Record<string, unknown>;
  return { ...rest, external_accounts: social_accounts };
}
