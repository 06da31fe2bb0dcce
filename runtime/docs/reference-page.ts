// /docs: the OpenAPI documents rendered by Swagger UI (swagger-ui-dist, served from node_modules under
// /docs/assets/, so the page works offline), with its definition selector as the version switcher: every dated
// version, each loading /api/v1/openapi.json?version=<date>. ?version=<date> opens the page at that version.
import { page } from './html.js';

export function referencePage(basePath: string, versions: readonly string[], opened: string): string {
  const head = versions[0];
  const label = (v: string) => (v === head ? `${v} (latest)` : v);
  const config = {
    urls: versions.map((v) => ({ url: `${basePath}/openapi.json?version=${v}`, name: label(v) })),
    'urls.primaryName': label(opened),
  };
  // JSON inside a script element: "<" escaped so that no value can close the element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return page(`Commerce Platform API reference (${opened})`, `
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script>
  const config = ${json};
  window.ui = SwaggerUIBundle({
    ...config,
    dom_id: '#reference',
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
  });
</script>`, '<link rel="stylesheet" href="/docs/assets/swagger-ui.css">');
}
