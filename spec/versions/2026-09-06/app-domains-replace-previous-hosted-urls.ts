// Before 2026-09-06 (entry 2) an app listed the URLs of its former routes itself, newest first, and had no domains
// (GET /domains did not exist). The head's domains are newest first already, so the older list keeps that order.
interface AppDomain { url: string; status: string }

export function down(app: any): any {
  const domains = (app.domains ?? []) as AppDomain[];
  app.previous_hosted_urls = domains.filter((d) => d.status === 'previous').map((d) => d.url);
  delete app.domains;
  return app;
}
