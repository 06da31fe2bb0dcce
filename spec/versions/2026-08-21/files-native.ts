// Before 2026-08-21 (entry 39) a file had the official client's shape: upload_status, size as a decimal string, and
// no multipart fields (the client uploads with one PUT).
export function down(f: any): any {
  return {
    id: f.id, filename: f.filename, content_type: f.content_type, upload_status: f.status,
    visibility: f.visibility, size: f.size === null ? null : String(f.size), url: f.url,
    upload_url: f.upload_url, upload_headers: f.upload_headers,
  };
}
