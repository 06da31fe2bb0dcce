// What the rest of the project uses of the checkout_configurations area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { CHECKOUT_PATH, configurationPurchaseUrl, variantPurchaseUrl } from './purchase-url.js';
