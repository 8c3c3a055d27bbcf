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

/** How densely an article links (the engine places links so; a site plan sizes its articles by it). */
export const LINKING = {
  /** About one link per this many words of the article. */
  wordsPerLink: 200,
  /** A section's paragraphs, when not given, are its words over this (a paragraph holds about 90 words): at most one link each. */
  paragraphWords: 90,
  /** Most anchor phrases offered per link. */
  anchors: 8,
} as const;
