/** The origin of links given to people without credentials (receipts, the sandbox's 3-D Secure page):
 * PUBLIC_BASE_URL, else the local server `npm start` runs. */
export const publicBaseUrl = (): string => process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
