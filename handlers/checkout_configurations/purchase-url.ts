// Where buyers go to buy: every purchase link the API returns is built here, from one base address.
export const CHECKOUT_BASE_URL = 'https://checkout.sandbox.example';

/** A variant's link: its quick link slug when it has one, else its id. */
export function variantPurchaseUrl(variant: { id: string; short_link?: string | null }): string {
  return variant.short_link
    ? `${CHECKOUT_BASE_URL}/q/${encodeURIComponent(variant.short_link)}`
    : `${CHECKOUT_BASE_URL}/p/${variant.id}`;
}

export const configurationPurchaseUrl = (configuration: { id: string }): string => `${CHECKOUT_BASE_URL}/c/${configuration.id}`;
