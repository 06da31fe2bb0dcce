// Where buyers go to buy: every purchase link the API returns is built here. They point at the checkout page this
// server serves (handlers/checkout), under PUBLIC_BASE_URL like the sandbox's other pages.
import { publicBaseUrl } from '../shared/public-url.js';

/** The checkout page's path prefix; its three link forms are /p/<variant id>, /q/<short_link> and /c/<configuration id>. */
export const CHECKOUT_PATH = '/checkout';

const checkoutBase = () => `${publicBaseUrl()}${CHECKOUT_PATH}`;

/** A variant's link: its quick link slug when it has one, else its id. */
export function variantPurchaseUrl(variant: { id: string; short_link?: string | null }): string {
  return variant.short_link
    ? `${checkoutBase()}/q/${encodeURIComponent(variant.short_link)}`
    : `${checkoutBase()}/p/${variant.id}`;
}

export const configurationPurchaseUrl = (configuration: { id: string }): string => `${checkoutBase()}/c/${configuration.id}`;
