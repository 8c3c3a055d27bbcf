/** Bounds of the request, one table so validation, docs and errors agree. */
export const LIMITS = {
  topic: 300,
  lengthMin: 100,
  lengthMax: 5000,
  word: 40,
  keywords: 20,
  keyword: 80,
  title: 120,
  description: 320,
  avoid: 100,
  avoidPhrase: 60,
  voice: 500,
  sources: 20,
  /** Bytes of source text (UTF-8) in all: 100 KiB. */
  sourcesText: 100 * 1024,
  sourceTitle: 200,
  url: 2048,
  links: 50,
  linkTitle: 200,
  linkKeywords: 10,
  authorName: 100,
  outlineHeadings: 60,
} as const;
