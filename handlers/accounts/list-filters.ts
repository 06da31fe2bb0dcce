// Small pieces of GET /accounts input handling that the runtime cannot know: the orders and LIKE escaping.

export type SortKind = 'created_at' | 'volume';

/** A LIKE pattern matching `text` anywhere, with %, _ and the escape character itself taken literally. */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
