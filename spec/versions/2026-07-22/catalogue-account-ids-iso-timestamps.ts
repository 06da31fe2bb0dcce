// Before 2026-07-20 checkout configurations carried epoch seconds, not ISO 8601 strings.
export function down(config: any): any {
  for (const key of ['created_at', 'updated_at']) {
    if (typeof config[key] === 'string') config[key] = Math.floor(Date.parse(config[key]) / 1000);
  }
  return config;
}
