/**
 * Fixed strings an article needs in its own language (section titles, keyword lead-ins,
 * FAQ question templates) and the ISO 639-1 table that decides which language codes are
 * valid. Pure data: no model call may be needed to write "Conclusion" in Polish.
 *
 * Templates put the keyword where it needs no inflection (after a preposition that takes
 * a bare noun, in quotes after "topic", or as a nominative subject), because the keyword
 * is inserted verbatim and may be any noun phrase.
 */

/** Fixed strings of an article in one language. */
export interface Labels {
  introduction: string;
  conclusion: string;
  faq: string;
  keyTakeaways: string;
  /** English name of the language, used in prompts ("Write in German"). */
  languageName: string;
  /**
   * One-sentence openers that place the keyword naturally at the start of a section;
   * `{k}` is the keyword. Each starts with a different word so consecutive sections vary.
   */
  leadIns: string[];
  /**
   * Patterns that make a heading mention the keyword: `{h}` is the heading, inserted
   * as-is (mid-phrase in most patterns), `{k}` the keyword.
   */
  headingWithKeyword: string[];
  /** FAQ question templates about the keyword, `{k}` the keyword. */
  faqQuestions: string[];
}

/** Every ISO 639-1 code with its English name: the single source of truth for valid codes. */
const ISO_639_1 = new Map<string, string>(
  Object.entries({
    aa: "Afar", ab: "Abkhazian", ae: "Avestan", af: "Afrikaans", ak: "Akan", am: "Amharic",
    an: "Aragonese", ar: "Arabic", as: "Assamese", av: "Avaric", ay: "Aymara", az: "Azerbaijani",
    ba: "Bashkir", be: "Belarusian", bg: "Bulgarian", bh: "Bihari", bi: "Bislama", bm: "Bambara",
    bn: "Bengali", bo: "Tibetan", br: "Breton", bs: "Bosnian",
    ca: "Catalan", ce: "Chechen", ch: "Chamorro", co: "Corsican", cr: "Cree", cs: "Czech",
    cu: "Church Slavonic", cv: "Chuvash", cy: "Welsh",
    da: "Danish", de: "German", dv: "Dhivehi", dz: "Dzongkha",
    ee: "Ewe", el: "Greek", en: "English", eo: "Esperanto", es: "Spanish", et: "Estonian",
    eu: "Basque",
    fa: "Persian", ff: "Fula", fi: "Finnish", fj: "Fijian", fo: "Faroese", fr: "French",
    fy: "Western Frisian",
    ga: "Irish", gd: "Scottish Gaelic", gl: "Galician", gn: "Guarani", gu: "Gujarati", gv: "Manx",
    ha: "Hausa", he: "Hebrew", hi: "Hindi", ho: "Hiri Motu", hr: "Croatian", ht: "Haitian Creole",
    hu: "Hungarian", hy: "Armenian", hz: "Herero",
    ia: "Interlingua", id: "Indonesian", ie: "Interlingue", ig: "Igbo", ii: "Sichuan Yi",
    ik: "Inupiaq", io: "Ido", is: "Icelandic", it: "Italian", iu: "Inuktitut",
    ja: "Japanese", jv: "Javanese",
    ka: "Georgian", kg: "Kongo", ki: "Kikuyu", kj: "Kwanyama", kk: "Kazakh", kl: "Kalaallisut",
    km: "Khmer", kn: "Kannada", ko: "Korean", kr: "Kanuri", ks: "Kashmiri", ku: "Kurdish",
    kv: "Komi", kw: "Cornish", ky: "Kyrgyz",
    la: "Latin", lb: "Luxembourgish", lg: "Ganda", li: "Limburgish", ln: "Lingala", lo: "Lao",
    lt: "Lithuanian", lu: "Luba-Katanga", lv: "Latvian",
    mg: "Malagasy", mh: "Marshallese", mi: "Maori", mk: "Macedonian", ml: "Malayalam",
    mn: "Mongolian", mr: "Marathi", ms: "Malay", mt: "Maltese", my: "Burmese",
    na: "Nauru", nb: "Norwegian Bokmål", nd: "North Ndebele", ne: "Nepali", ng: "Ndonga",
    nl: "Dutch", nn: "Norwegian Nynorsk", no: "Norwegian", nr: "South Ndebele", nv: "Navajo",
    ny: "Chichewa",
    oc: "Occitan", oj: "Ojibwe", om: "Oromo", or: "Odia", os: "Ossetian",
    pa: "Punjabi", pi: "Pali", pl: "Polish", ps: "Pashto", pt: "Portuguese",
    qu: "Quechua",
    rm: "Romansh", rn: "Kirundi", ro: "Romanian", ru: "Russian", rw: "Kinyarwanda",
    sa: "Sanskrit", sc: "Sardinian", sd: "Sindhi", se: "Northern Sami", sg: "Sango",
    si: "Sinhala", sk: "Slovak", sl: "Slovenian", sm: "Samoan", sn: "Shona", so: "Somali",
    sq: "Albanian", sr: "Serbian", ss: "Swati", st: "Southern Sotho", su: "Sundanese",
    sv: "Swedish", sw: "Swahili",
    ta: "Tamil", te: "Telugu", tg: "Tajik", th: "Thai", ti: "Tigrinya", tk: "Turkmen",
    tl: "Tagalog", tn: "Tswana", to: "Tongan", tr: "Turkish", ts: "Tsonga", tt: "Tatar",
    tw: "Twi", ty: "Tahitian",
    ug: "Uyghur", uk: "Ukrainian", ur: "Urdu", uz: "Uzbek",
    ve: "Venda", vi: "Vietnamese", vo: "Volapük",
    wa: "Walloon", wo: "Wolof",
    xh: "Xhosa",
    yi: "Yiddish", yo: "Yoruba",
    za: "Zhuang", zh: "Chinese", zu: "Zulu",
  }),
);

/** Label data per language; `languageName` comes from the ISO table so names never drift. */
const LABEL_DATA = {
  en: {
    introduction: "Introduction",
    conclusion: "Conclusion",
    faq: "Frequently asked questions",
    keyTakeaways: "Key takeaways",
    leadIns: [
      "This section looks at {k} in practical terms.",
      "When it comes to {k}, a few basics make a real difference.",
      "Many readers want clear and reliable guidance on {k}.",
      "Understanding {k} starts with a solid grasp of the essentials.",
    ],
    headingWithKeyword: ["{h} when it comes to {k}", "{k} and {h}"],
    faqQuestions: [
      "What is {k}?",
      "Why does {k} matter?",
      "How do you get started with {k}?",
      "What are common mistakes with {k}?",
      "Where can you learn more about {k}?",
    ],
  },
  de: {
    introduction: "Einleitung",
    conclusion: "Fazit",
    faq: "Häufig gestellte Fragen",
    keyTakeaways: "Das Wichtigste in Kürze",
    // "Thema {k}" and "rund um {k}" keep the keyword free of article, gender and case.
    leadIns: [
      "Dieser Abschnitt beleuchtet das Thema {k} aus praktischer Sicht.",
      "Beim Thema {k} lohnt sich ein genauer Blick auf die Details.",
      "Wer sich mit dem Thema {k} beschäftigt, sollte zuerst die Grundlagen kennen.",
      "Rund um {k} tauchen in der Praxis immer wieder ähnliche Fragen auf.",
    ],
    headingWithKeyword: ["{h} rund um {k}", "{h} beim Thema {k}"],
    faqQuestions: [
      "Worum geht es beim Thema {k}?",
      "Warum ist das Thema {k} so wichtig?",
      "Wie gelingt der Einstieg ins Thema {k}?",
      "Welche Fehler passieren beim Thema {k} besonders häufig?",
      "Wo findet man weitere Informationen zum Thema {k}?",
    ],
  },
  fr: {
    introduction: "Introduction",
    conclusion: "Conclusion",
    faq: "Questions fréquentes",
    keyTakeaways: "Points clés",
    // Quoted, the keyword needs no article and never meets an elision ("de" → "d'").
    leadIns: [
      "Le sujet «\u00a0{k}\u00a0» mérite d'être abordé sous un angle pratique.",
      "Quand on s'intéresse au thème «\u00a0{k}\u00a0», quelques notions de base font toute la différence.",
      "Beaucoup de lecteurs recherchent des conseils fiables sur le thème «\u00a0{k}\u00a0».",
      "Cette partie fait le point sur les aspects concrets du sujet «\u00a0{k}\u00a0».",
    ],
    headingWithKeyword: ["{h} autour du thème «\u00a0{k}\u00a0»", "{h} sur le sujet «\u00a0{k}\u00a0»"],
    faqQuestions: [
      "Que faut-il savoir sur le thème «\u00a0{k}\u00a0»\u00a0?",
      "Pourquoi le sujet «\u00a0{k}\u00a0» est-il important\u00a0?",
      "Par où commencer avec le thème «\u00a0{k}\u00a0»\u00a0?",
      "Quelles sont les erreurs fréquentes sur le thème «\u00a0{k}\u00a0»\u00a0?",
      "Où trouver plus d'informations sur le thème «\u00a0{k}\u00a0»\u00a0?",
    ],
  },
  es: {
    introduction: "Introducción",
    conclusion: "Conclusión",
    faq: "Preguntas frecuentes",
    keyTakeaways: "Puntos clave",
    leadIns: [
      "Cuando se habla de {k}, algunos aspectos básicos marcan la diferencia.",
      "En materia de {k}, conviene empezar por una base sólida.",
      "Muchos lectores buscan información fiable y práctica sobre {k}.",
      "Antes de tomar decisiones sobre {k}, conviene conocer lo esencial.",
    ],
    headingWithKeyword: ["{h} en materia de {k}", "{h} cuando se habla de {k}"],
    faqQuestions: [
      "¿Qué hay que saber sobre {k}?",
      "¿Por qué es importante informarse sobre {k}?",
      "¿Cómo empezar con {k}?",
      "¿Cuáles son los errores más comunes en materia de {k}?",
      "¿Dónde encontrar más información sobre {k}?",
    ],
  },
  it: {
    introduction: "Introduzione",
    conclusion: "Conclusione",
    faq: "Domande frequenti",
    keyTakeaways: "Punti chiave",
    leadIns: [
      "Quando si parla di {k}, alcuni aspetti di base fanno la differenza.",
      "In fatto di {k}, conviene partire da basi solide e concrete.",
      "Molti lettori cercano informazioni affidabili e pratiche in tema di {k}.",
      "Prima di prendere decisioni in materia di {k}, è utile conoscere l'essenziale.",
    ],
    headingWithKeyword: ["{h} in fatto di {k}", "{h} in tema di {k}"],
    faqQuestions: [
      "Cosa bisogna sapere in tema di {k}?",
      "Perché è importante informarsi in materia di {k}?",
      "Da dove iniziare quando si parla di {k}?",
      "Quali sono gli errori più comuni in fatto di {k}?",
      "Dove trovare maggiori informazioni in tema di {k}?",
    ],
  },
  pt: {
    introduction: "Introdução",
    conclusion: "Conclusão",
    faq: "Perguntas frequentes",
    keyTakeaways: "Pontos-chave",
    // Wordings valid in both European and Brazilian Portuguese.
    leadIns: [
      "Quando o assunto é {k}, alguns pontos básicos fazem toda a diferença.",
      "Em matéria de {k}, vale a pena começar por uma base sólida.",
      "Muitos leitores procuram informações claras e práticas sobre {k}.",
      "Antes de tomar decisões sobre {k}, convém conhecer o essencial.",
    ],
    headingWithKeyword: ["{h} em matéria de {k}", "{h} quando o assunto é {k}"],
    faqQuestions: [
      "O que é preciso saber sobre {k}?",
      "Qual é a importância de {k}?",
      "Por onde começar quando o assunto é {k}?",
      "Quais são os erros mais comuns em matéria de {k}?",
      "Onde encontrar mais informações sobre {k}?",
    ],
  },
  nl: {
    introduction: "Inleiding",
    conclusion: "Conclusie",
    faq: "Veelgestelde vragen",
    keyTakeaways: "Belangrijkste punten",
    leadIns: [
      "Dit deel bekijkt {k} vanuit een praktische invalshoek.",
      "Als het om {k} gaat, maken een paar basisprincipes het verschil.",
      "Veel lezers zoeken duidelijke en betrouwbare informatie over {k}.",
      "Wie zich verdiept in {k}, begint het best bij de basis.",
    ],
    headingWithKeyword: ["{h} rond {k}", "{h} bij {k}"],
    faqQuestions: [
      "Wat moet je weten over {k}?",
      "Waarom loont het om je te verdiepen in {k}?",
      "Hoe begin je met {k}?",
      "Wat zijn veelgemaakte fouten bij {k}?",
      "Waar vind je meer informatie over {k}?",
    ],
  },
  pl: {
    introduction: "Wprowadzenie",
    conclusion: "Podsumowanie",
    faq: "Najczęściej zadawane pytania",
    keyTakeaways: "Kluczowe wnioski",
    // "{k} to …", "{k} – …" and a quoted keyword after "temat" all keep the nominative.
    leadIns: [
      "{k} to temat, który warto poznać od strony praktycznej.",
      "W tej części skupiamy się na praktycznych aspektach tematu „{k}”.",
      "Kto interesuje się tematem „{k}”, powinien najpierw poznać podstawy.",
      "Poniżej zebraliśmy praktyczne wskazówki dotyczące tematu „{k}”.",
    ],
    headingWithKeyword: ["{k} – {h}", "{k} w praktyce: {h}"],
    faqQuestions: [
      "{k} – co to takiego?",
      "{k} – od czego zacząć?",
      "{k} – jakich błędów unikać?",
      "Dlaczego temat „{k}” jest tak ważny?",
      "Gdzie szukać rzetelnych informacji na temat „{k}”?",
    ],
  },
  sv: {
    introduction: "Inledning",
    conclusion: "Slutsats",
    faq: "Vanliga frågor",
    keyTakeaways: "Viktigaste punkterna",
    leadIns: [
      "Det här avsnittet tar upp {k} ur ett praktiskt perspektiv.",
      "När det gäller {k} gör några grundläggande saker stor skillnad.",
      "Många läsare söker tydlig och pålitlig information om {k}.",
      "Den som vill förstå {k} bör börja med grunderna.",
    ],
    headingWithKeyword: ["{h} när det gäller {k}", "{h} kring {k}"],
    faqQuestions: [
      "Vad är {k}?",
      "Varför spelar {k} roll?",
      "Hur kommer man igång med {k}?",
      "Vilka är de vanligaste misstagen när det gäller {k}?",
      "Var kan man lära sig mer om {k}?",
    ],
  },
  da: {
    introduction: "Indledning",
    conclusion: "Konklusion",
    faq: "Ofte stillede spørgsmål",
    keyTakeaways: "Vigtigste pointer",
    leadIns: [
      "Dette afsnit ser nærmere på {k} fra en praktisk vinkel.",
      "Når det gælder {k}, gør nogle få grundprincipper en stor forskel.",
      "Mange læsere søger klar og pålidelig viden om {k}.",
      "Hvis du vil forstå {k}, er det bedst at starte med det grundlæggende.",
    ],
    headingWithKeyword: ["{h} når det gælder {k}", "{h} omkring {k}"],
    faqQuestions: [
      "Hvad er {k}?",
      "Hvorfor spiller {k} en rolle?",
      "Hvordan kommer man i gang med {k}?",
      "Hvad er de mest almindelige fejl, når det gælder {k}?",
      "Hvor kan man lære mere om {k}?",
    ],
  },
  no: {
    introduction: "Innledning",
    conclusion: "Konklusjon",
    faq: "Ofte stilte spørsmål",
    keyTakeaways: "Viktigste punkter",
    // Bokmål, the written standard most Norwegian readers expect.
    leadIns: [
      "Denne delen ser nærmere på {k} fra en praktisk vinkel.",
      "Når det gjelder {k}, gjør noen få grunnprinsipper stor forskjell.",
      "Mange lesere søker klar og pålitelig informasjon om {k}.",
      "Hvis du vil forstå {k}, er det lurt å starte med det grunnleggende.",
    ],
    headingWithKeyword: ["{h} når det gjelder {k}", "{h} rundt {k}"],
    faqQuestions: [
      "Hva er {k}?",
      "Hvorfor spiller {k} en rolle?",
      "Hvordan kommer man i gang med {k}?",
      "Hva er de vanligste feilene når det gjelder {k}?",
      "Hvor kan man lære mer om {k}?",
    ],
  },
  fi: {
    introduction: "Johdanto",
    conclusion: "Yhteenveto",
    faq: "Usein kysytyt kysymykset",
    keyTakeaways: "Keskeiset asiat",
    // "aiheena on {k}" and "{k} kannattaa …" (object of an impersonal verb) take the nominative.
    leadIns: [
      "Tässä osiossa aiheena on {k} ja sen merkitys käytännössä.",
      "{k} kannattaa ottaa vakavasti, sillä pienetkin valinnat vaikuttavat lopputulokseen.",
      "Moni lukija pohtii, mistä kannattaa aloittaa, kun aiheena on {k}.",
      "Ennen päätöksiä {k} kannattaa tuntea perusteellisesti ja monelta kantilta.",
    ],
    headingWithKeyword: ["{h}, kun aiheena on {k}", "{k} käytännössä: {h}"],
    faqQuestions: [
      "Mitä tarkoittaa {k}?",
      "Miksi {k} kannattaa ottaa vakavasti?",
      "Mistä kannattaa aloittaa, kun aiheena on {k}?",
      "Mitkä ovat yleisimmät virheet, kun aiheena on {k}?",
      "Mistä saa luotettavaa lisätietoa, kun aiheena on {k}?",
    ],
  },
  cs: {
    introduction: "Úvod",
    conclusion: "Závěr",
    faq: "Často kladené otázky",
    keyTakeaways: "Hlavní body",
    // "{k} – to je …" and a quoted keyword after "téma" keep the nominative.
    leadIns: [
      "{k} – to je téma, kterému se vyplatí věnovat pozornost.",
      "V této části se podíváme na praktické stránky tématu „{k}“.",
      "Kdo se zajímá o téma „{k}“, měl by nejprve znát základy.",
      "Téma „{k}“ s sebou přináší řadu praktických otázek.",
    ],
    headingWithKeyword: ["{k} – {h}", "{k} v praxi: {h}"],
    faqQuestions: [
      "{k} – co to vlastně je?",
      "{k} – jak začít?",
      "{k} – jakých chyb se vyvarovat?",
      "Proč je téma „{k}“ tak důležité?",
      "Kde se dozvědět více o tématu „{k}“?",
    ],
  },
  tr: {
    introduction: "Giriş",
    conclusion: "Sonuç",
    faq: "Sıkça sorulan sorular",
    keyTakeaways: "Önemli noktalar",
    // "konusu", "hakkında" and "ile ilgili" follow the bare keyword, so no suffix is needed.
    leadIns: [
      "Bu bölümde {k} konusunu pratik açıdan ele alıyoruz.",
      "{k} söz konusu olduğunda birkaç temel nokta büyük fark yaratır.",
      "Birçok okuyucu {k} hakkında pratik ve güvenilir bilgi arıyor.",
      "Konuya yeni başlayanlar için {k} ile ilgili temel bilgileri özetledik.",
    ],
    headingWithKeyword: ["{k} konusunda {h}", "{k} ile ilgili {h}"],
    faqQuestions: [
      "{k} nedir?",
      "{k} neden önemlidir?",
      "{k} konusuna nasıl başlanır?",
      "{k} konusunda en sık yapılan hatalar nelerdir?",
      "{k} hakkında daha fazla bilgi nereden edinilir?",
    ],
  },
  ru: {
    introduction: "Введение",
    conclusion: "Заключение",
    faq: "Часто задаваемые вопросы",
    keyTakeaways: "Ключевые выводы",
    // "{k} — это …" and a quoted keyword after "тема" keep the nominative.
    leadIns: [
      "{k} — это тема, в которой важно разбираться на практике.",
      "В этом разделе мы рассмотрим практические стороны темы «{k}».",
      "Тем, кто интересуется темой «{k}», стоит начать с основ.",
      "Ниже собраны самые важные сведения по теме «{k}».",
    ],
    headingWithKeyword: ["{k} — {h}", "{k} на практике: {h}"],
    faqQuestions: [
      "Что такое {k}?",
      "{k} — с чего начать?",
      "{k} — каких ошибок стоит избегать?",
      "Почему тема «{k}» так важна?",
      "Где узнать больше о теме «{k}»?",
    ],
  },
  uk: {
    introduction: "Вступ",
    conclusion: "Висновки",
    faq: "Часті запитання",
    keyTakeaways: "Ключові висновки",
    leadIns: [
      "{k} — це тема, в якій варто розібратися на практиці.",
      "У цьому розділі ми розглянемо практичні аспекти теми «{k}».",
      "Тим, хто цікавиться темою «{k}», варто почати з основ.",
      "Нижче зібрано найважливіші відомості щодо теми «{k}».",
    ],
    headingWithKeyword: ["{k} — {h}", "{k} на практиці: {h}"],
    faqQuestions: [
      "Що таке {k}?",
      "{k} — з чого почати?",
      "{k} — яких помилок варто уникати?",
      "Чому тема «{k}» така важлива?",
      "Де дізнатися більше про тему «{k}»?",
    ],
  },
  ja: {
    introduction: "はじめに",
    conclusion: "まとめ",
    faq: "よくある質問",
    keyTakeaways: "重要なポイント",
    leadIns: [
      "このセクションでは、{k}について実践的な観点から解説します。",
      "{k}を理解するには、まず基本を押さえることが大切です。",
      "多くの人が、{k}に関する信頼できる情報を求めています。",
      "ここからは、{k}で押さえておきたいポイントを紹介します。",
    ],
    headingWithKeyword: ["{k}の{h}", "{k}に関する{h}"],
    faqQuestions: [
      "{k}とは何ですか？",
      "{k}はなぜ重要なのですか？",
      "{k}を始めるには何から手をつければよいですか？",
      "{k}でよくある失敗にはどのようなものがありますか？",
      "{k}についてさらに詳しく知るにはどうすればよいですか？",
    ],
  },
  zh: {
    introduction: "引言",
    conclusion: "总结",
    faq: "常见问题",
    keyTakeaways: "关键要点",
    // Simplified Chinese, the default written form for "zh".
    leadIns: [
      "本节将从实际角度介绍{k}的相关内容。",
      "想要真正了解{k}，首先需要掌握一些基础知识。",
      "许多读者都在寻找关于{k}的可靠而实用的信息。",
      "谈到{k}，有几个基本要点往往起着决定性作用。",
    ],
    headingWithKeyword: ["{k}的{h}", "关于{k}的{h}"],
    faqQuestions: [
      "什么是{k}？",
      "{k}为什么重要？",
      "{k}应该如何入门？",
      "关于{k}，常见的错误有哪些？",
      "在哪里可以了解更多关于{k}的信息？",
    ],
  },
  ko: {
    introduction: "서론",
    conclusion: "결론",
    faq: "자주 묻는 질문",
    keyTakeaways: "핵심 요약",
    // Only particles that do not depend on the keyword's final sound (의, 에, 에서).
    leadIns: [
      "이 섹션에서는 {k}에 대해 실용적인 관점에서 살펴봅니다.",
      "많은 독자가 {k}에 관한 믿을 만한 정보를 찾고 있습니다.",
      "{k}의 기본을 제대로 이해하면 더 나은 선택을 할 수 있습니다.",
      "실제로 {k}에서는 작은 차이가 큰 결과를 만들어 냅니다.",
    ],
    headingWithKeyword: ["{k}의 {h}", "{k}에 관한 {h}"],
    faqQuestions: [
      "{k}의 의미는 무엇인가요?",
      "{k}에 관심을 가져야 하는 이유는 무엇인가요?",
      "{k}에 입문하려면 어떻게 시작해야 하나요?",
      "{k}에서 흔히 하는 실수에는 어떤 것이 있나요?",
      "{k}에 대해 더 알아보려면 어디를 참고하면 좋을까요?",
    ],
  },
  ar: {
    introduction: "مقدمة",
    conclusion: "خاتمة",
    faq: "الأسئلة الشائعة",
    keyTakeaways: "أهم النقاط",
    // No attached prefixes (بـ، لـ) and no adjectives agreeing with the keyword's gender.
    leadIns: [
      "يتناول هذا القسم {k} من منظور عملي وواضح.",
      "عند الحديث عن {k}، تصنع بعض الأساسيات فرقًا كبيرًا.",
      "يبحث كثير من القراء عن معلومات موثوقة وعملية حول {k}.",
      "لفهم {k} جيدًا، من المفيد البدء بالأساسيات.",
    ],
    headingWithKeyword: ["{h} في مجال {k}", "{h} حول {k}"],
    faqQuestions: [
      "ما الذي يجب معرفته عن {k}؟",
      "ما أهمية {k}؟",
      "كيف يمكن البدء في {k}؟",
      "ما الأخطاء الشائعة عند التعامل مع {k}؟",
      "أين يمكن معرفة المزيد عن {k}؟",
    ],
  },
  hi: {
    introduction: "परिचय",
    conclusion: "निष्कर्ष",
    faq: "अक्सर पूछे जाने वाले प्रश्न",
    keyTakeaways: "मुख्य बातें",
    leadIns: [
      "इस भाग में हम {k} को व्यावहारिक नज़रिए से समझेंगे।",
      "{k} के मामले में कुछ बुनियादी बातें बड़ा फ़र्क़ डालती हैं।",
      "बहुत से पाठक {k} के बारे में भरोसेमंद जानकारी खोजते हैं।",
      "सही जानकारी के साथ {k} को समझना काफ़ी आसान हो जाता है।",
    ],
    headingWithKeyword: ["{k} और {h}", "{k} के संदर्भ में {h}"],
    faqQuestions: [
      "{k} क्या है?",
      "{k} क्यों महत्वपूर्ण है?",
      "{k} की शुरुआत कैसे करें?",
      "{k} से जुड़ी आम गलतियाँ कौन-सी हैं?",
      "{k} के बारे में और जानकारी कहाँ मिल सकती है?",
    ],
  },
  id: {
    introduction: "Pendahuluan",
    conclusion: "Kesimpulan",
    faq: "Pertanyaan yang sering diajukan",
    keyTakeaways: "Poin penting",
    leadIns: [
      "Bagian ini membahas {k} dari sudut pandang yang praktis.",
      "Ketika berbicara tentang {k}, beberapa hal dasar sangat menentukan.",
      "Banyak pembaca mencari informasi yang jelas dan tepercaya tentang {k}.",
      "Untuk memahami {k} dengan baik, mulailah dari dasar-dasarnya.",
    ],
    headingWithKeyword: ["{h} seputar {k}", "{h} terkait {k}"],
    faqQuestions: [
      "Apa itu {k}?",
      "Mengapa {k} penting?",
      "Bagaimana cara memulai dengan {k}?",
      "Apa saja kesalahan umum terkait {k}?",
      "Di mana bisa mempelajari lebih lanjut tentang {k}?",
    ],
  },
} satisfies Record<string, Omit<Labels, "languageName">>;

type LabelledCode = keyof typeof LABEL_DATA;

/** Codes that share another code's labels: Bokmål is what our Norwegian labels are written in. */
const LABEL_ALIASES = new Map<string, LabelledCode>([["nb", "no"]]);

/** Frozen, so the shared objects `labelsFor` returns cannot be changed by one caller for all. */
const LABELS = Object.fromEntries(
  Object.entries(LABEL_DATA).map(([code, data]) => [
    code,
    Object.freeze({
      ...data,
      languageName: ISO_639_1.get(code) ?? code,
      leadIns: Object.freeze([...data.leadIns]) as string[],
      headingWithKeyword: Object.freeze([...data.headingWithKeyword]) as string[],
      faqQuestions: Object.freeze([...data.faqQuestions]) as string[],
    }),
  ]),
) as Record<LabelledCode, Labels>;

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

/** English name of any valid ISO 639-1 code, for prompts ("Write in Swahili"); undefined otherwise. */
export function languageName(code: string): string | undefined {
  return ISO_639_1.get(code.toLowerCase());
}

/** Whether a code is a valid ISO 639-1 code (two letters, case-insensitive). */
export function isIso6391(code: string): boolean {
  return ISO_639_1.has(code.toLowerCase());
}
