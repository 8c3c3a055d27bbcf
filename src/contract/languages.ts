/**
 * The only fixed strings an article may hold: the labels of its structural sections
 * (Introduction, Conclusion, FAQ, Key takeaways, Sources), per language. Everything else in an
 * article, every heading, question and sentence, is written by the model.
 * Also the ISO 639-1 table that decides which language codes are valid.
 */

/** Section labels of an article in one language. */
export interface Labels {
  introduction: string;
  conclusion: string;
  faq: string;
  keyTakeaways: string;
  /** The list of cited sources at the end. */
  sources: string;
}

/** Every ISO 639-1 code: the single source of truth for valid codes. */
const ISO_639_1 = new Set(
  `
  aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo
  br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es
  et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr
  ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj
  kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv
  mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv
  ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd
  se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti
  tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi
  yo za zh zu
`
    .split(/\s+/)
    .filter(Boolean),
);

const LABELS = {
  en: {
    introduction: "Introduction",
    conclusion: "Conclusion",
    faq: "Frequently asked questions",
    keyTakeaways: "Key takeaways",
    sources: "Sources",
  },
  de: {
    introduction: "Einleitung",
    conclusion: "Fazit",
    faq: "Häufig gestellte Fragen",
    keyTakeaways: "Das Wichtigste in Kürze",
    sources: "Quellen",
  },
  fr: {
    introduction: "Introduction",
    conclusion: "Conclusion",
    faq: "Questions fréquentes",
    keyTakeaways: "Points clés",
    sources: "Sources",
  },
  es: {
    introduction: "Introducción",
    conclusion: "Conclusión",
    faq: "Preguntas frecuentes",
    keyTakeaways: "Puntos clave",
    sources: "Fuentes",
  },
  it: { introduction: "Introduzione", conclusion: "Conclusione", faq: "Domande frequenti", keyTakeaways: "Punti chiave", sources: "Fonti" },
  pt: { introduction: "Introdução", conclusion: "Conclusão", faq: "Perguntas frequentes", keyTakeaways: "Pontos-chave", sources: "Fontes" },
  nl: {
    introduction: "Inleiding",
    conclusion: "Conclusie",
    faq: "Veelgestelde vragen",
    keyTakeaways: "Belangrijkste punten",
    sources: "Bronnen",
  },
  pl: {
    introduction: "Wprowadzenie",
    conclusion: "Podsumowanie",
    faq: "Najczęściej zadawane pytania",
    keyTakeaways: "Kluczowe wnioski",
    sources: "Źródła",
  },
  sv: { introduction: "Inledning", conclusion: "Slutsats", faq: "Vanliga frågor", keyTakeaways: "Viktigaste punkterna", sources: "Källor" },
  da: {
    introduction: "Indledning",
    conclusion: "Konklusion",
    faq: "Ofte stillede spørgsmål",
    keyTakeaways: "Vigtigste pointer",
    sources: "Kilder",
  },
  no: {
    introduction: "Innledning",
    conclusion: "Konklusjon",
    faq: "Ofte stilte spørsmål",
    keyTakeaways: "Viktigste punkter",
    sources: "Kilder",
  },
  fi: {
    introduction: "Johdanto",
    conclusion: "Yhteenveto",
    faq: "Usein kysytyt kysymykset",
    keyTakeaways: "Keskeiset asiat",
    sources: "Lähteet",
  },
  cs: { introduction: "Úvod", conclusion: "Závěr", faq: "Často kladené otázky", keyTakeaways: "Hlavní body", sources: "Zdroje" },
  tr: { introduction: "Giriş", conclusion: "Sonuç", faq: "Sıkça sorulan sorular", keyTakeaways: "Önemli noktalar", sources: "Kaynaklar" },
  ru: {
    introduction: "Введение",
    conclusion: "Заключение",
    faq: "Часто задаваемые вопросы",
    keyTakeaways: "Ключевые выводы",
    sources: "Источники",
  },
  uk: { introduction: "Вступ", conclusion: "Висновки", faq: "Часті запитання", keyTakeaways: "Ключові висновки", sources: "Джерела" },
  ja: { introduction: "はじめに", conclusion: "まとめ", faq: "よくある質問", keyTakeaways: "重要なポイント", sources: "参考文献" },
  zh: { introduction: "引言", conclusion: "总结", faq: "常见问题", keyTakeaways: "关键要点", sources: "参考资料" },
  ko: { introduction: "서론", conclusion: "결론", faq: "자주 묻는 질문", keyTakeaways: "핵심 요약", sources: "출처" },
  ar: { introduction: "مقدمة", conclusion: "خاتمة", faq: "الأسئلة الشائعة", keyTakeaways: "أهم النقاط", sources: "المصادر" },
  hi: { introduction: "परिचय", conclusion: "निष्कर्ष", faq: "अक्सर पूछे जाने वाले प्रश्न", keyTakeaways: "मुख्य बातें", sources: "स्रोत" },
  id: {
    introduction: "Pendahuluan",
    conclusion: "Kesimpulan",
    faq: "Pertanyaan yang sering diajukan",
    keyTakeaways: "Poin penting",
    sources: "Sumber",
  },
} as const satisfies Record<string, Labels>;

type LabelledCode = keyof typeof LABELS;

/** Norwegian Bokmål reads the Norwegian labels. */
const LABEL_ALIASES = new Map<string, LabelledCode>([["nb", "no"]]);

function isLabelled(code: string): code is LabelledCode {
  return Object.hasOwn(LABELS, code);
}

/** Languages with their own labels; others fall back to English labels. */
export const LABELLED_LANGUAGES: readonly string[] = Object.freeze(Object.keys(LABELS));

/** The labels for an ISO 639-1 code (any case); English for codes without their own. */
export function labelsFor(language: string): Labels {
  const lower = language.toLowerCase();
  const code = LABEL_ALIASES.get(lower) ?? lower;
  return isLabelled(code) ? LABELS[code] : LABELS.en;
}

/** The labels of an article's language and its English name (for prompts), in one lookup. */
export function articleLanguage(code: string): { labels: Labels; name: string } {
  return { labels: labelsFor(code), name: languageName(code) ?? "English" };
}

const englishNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

/** English name of any valid ISO 639-1 code, for prompts ("Write in Swahili"); undefined otherwise. */
export function languageName(code: string): string | undefined {
  const lower = code.toLowerCase();
  return ISO_639_1.has(lower) ? (englishNames.of(lower) ?? lower) : undefined;
}

/** Every ISO 639-1 code, lower-case, in order. */
export const ISO_639_1_CODES: readonly string[] = [...ISO_639_1];

/** Whether a code is a valid ISO 639-1 code (two letters, case-insensitive). */
export function isIso6391(code: string): boolean {
  return ISO_639_1.has(code.toLowerCase());
}
