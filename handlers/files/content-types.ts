// The content types a file may declare (spec/areas/files.yaml createFile.content_type) and the extensions that
// imply them when none is declared.
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf',
  csv: 'text/csv', txt: 'text/plain', json: 'application/json', mp4: 'video/mp4',
};

export function contentTypeOf(filename: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || 'application/octet-stream';
}
