// The v2 migration guide (generated from spec/v2.yaml), served where every v2 response's Link rel="deprecation"
// points: no credentials, like the rest of the documentation.
import type { ExtraRoute } from '../../runtime/app.js';
import { v2MigrationGuideHtml } from '../../generated/v2-migration-guide.js';
import { v2Settings } from '../../generated/v2-routes.js';

export const v2GuideRoutes: ExtraRoute[] = [{
  method: 'GET',
  path: v2Settings.guidePath,
  async handle(ctx) {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = v2MigrationGuideHtml;
  },
}];
