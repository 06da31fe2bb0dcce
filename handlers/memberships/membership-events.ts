// What a membership event stores: the Membership without its license key, a secret that no table keeps in the clear
// (handlers/memberships/license-key.ts). A delivery reads the key again from the membership
// (handlers/webhooks/delivery/secret-links.ts), so a receiver gets the documented Membership.
import type { Membership } from '../../generated/types.js';

export const membershipEventData = (membership: Membership): Membership => ({ ...membership, license_key: null });
