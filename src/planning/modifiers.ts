/**
 * Search modifiers: the words of a keyword that say what kind of page the searcher wants
 * ("best", "vs", "cheap", "review", "near me", a year) rather than what it is about. Two keywords
 * sharing only a modifier are no more alike than two sharing nothing, so a modifier never links
 * two groups. Each list is of plain words, compared as the planner compares every word (its stem
 * in the language, stop words left out), so "reviews" and "review" or "günstige" and "günstig"
 * are one. Every language the stemmer covers has a list; other languages have the shared words.
 */
import { contentTerms } from "../article/index.js";

/** Words every language's keywords use as written ("vs", "top"). */
const SHARED = "vs vs. versus top";

/** Each language's modifiers: best, top, versus, cheap, review, how to, near me, for, with, compare. */
const MODIFIERS: Record<string, string> = {
  ar: "أفضل افضل الأفضل ضد مقابل رخيص رخيصة ارخص مراجعة مراجعات تقييم كيف كيفية بالقرب مني مع مقارنة",
  bg: "най-добър най-добра най-добро най-добрите добър евтин евтина евтини ревю отзиви мнения как близо до мен за с срещу сравнение",
  da: "bedste billig billige billigste anmeldelse anmeldelser test hvordan nær mig for med mod sammenlign sammenligning",
  de:
    "beste bester bestes besten günstig günstige günstigste billig billige test testbericht testsieger bewertung erfahrungen vergleich gegen wie " +
    "anleitung nähe für mit",
  el: "καλύτερος καλύτερη καλύτερο καλύτερα καλύτερες φθηνός φθηνή φθηνό φθηνά κριτική κριτικές αξιολόγηση πώς κοντά μου για με εναντίον σύγκριση",
  en: "best better cheap cheaper cheapest affordable review reviews reviewed rated how near me for with compare comparison compared",
  es:
    "mejor mejores barato barata baratos baratas económico económica opiniones opinión reseña reseñas análisis cómo como cerca para con contra " +
    "comparativa comparación",
  fi: "paras parhaat parhain halpa halvat halvin halvimmat arvostelu arvostelut testi kokemuksia miten lähellä minua varten kanssa vastaan vertailu",
  fr: "meilleur meilleure meilleurs meilleures cher bon marché avis test comparatif comparaison comment près moi pour avec contre",
  ga: "fearr saor saoire léirmheas conas in aice liom do le in aghaidh comparáid",
  hi: "सबसे अच्छा अच्छे बेहतरीन सस्ता सस्ते सस्ती समीक्षा रिव्यू कैसे पास लिए साथ बनाम तुलना",
  hu: "legjobb legjobbak olcsó olcsón legolcsóbb vélemény vélemények teszt hogyan közelben nekem számára kontra összehasonlítás",
  hy: "լավագույն լավագույնը էժան ակնարկ կարծիքներ ինչպես մոտ ինձ համար հետ ընդդեմ համեմատություն",
  id: "terbaik bagus murah termurah ulasan review cara dekat saya untuk dengan lawan perbandingan",
  it: "migliore migliori economico economica economici economiche recensione recensioni opinioni come vicino per con contro confronto",
  lt: "geriausias geriausia geriausi pigus pigi pigūs apžvalga atsiliepimai kaip netoli manęs skirtas su prieš palyginimas",
  nb: "beste billig billige billigste anmeldelse anmeldelser test hvordan nær meg for med mot sammenlign sammenligning",
  ne: "उत्कृष्ट राम्रो सबैभन्दा सस्तो समीक्षा कसरी नजिक लागि सँग बनाम तुलना",
  nl: "beste goedkoop goedkope goedkoopste review recensie ervaringen hoe buurt voor met tegen vergelijken vergelijking",
  no: "beste billig billige billigste anmeldelse anmeldelser test hvordan nær meg for med mot sammenlign sammenligning",
  pt: "melhor melhores barato barata baratos baratas avaliação análise opiniões como perto mim para com contra comparação",
  ro: "bun bună bune ieftin ieftină ieftine recenzie recenzii păreri cum lângă mine pentru cu contra comparație",
  ru: "лучший лучшая лучшее лучшие дешевый дешёвый дешевые недорогой недорогие недорого отзыв отзывы обзор как рядом со мной для с против сравнение",
  sa: "श्रेष्ठ उत्तम सर्वोत्तम कथम् समीप सह",
  sr: "najbolji najbolja najbolje jeftin jeftina jeftini recenzija utisci kako blizu mene za sa protiv poređenje најбољи јефтин рецензија како близу за против",
  sv: "bästa bäst billig billiga billigast recension recensioner test omdöme hur nära mig för med mot jämför jämförelse",
  ta: "சிறந்த மலிவான மலிவு விமர்சனம் எப்படி அருகில் உடன் எதிராக ஒப்பீடு",
  tr: "en iyi ucuz yorum yorumlar inceleme nasıl yakınımda yakın için ile karşı karşılaştırma",
  uk: "найкращий найкраща найкраще найкращі дешевий дешеві недорогий відгук відгуки огляд як поруч зі мною для з проти порівняння",
};

/** Each language's modifiers as compared, built once. */
const built = new Map<string, ReadonlySet<string>>();

/** The modifiers of a language as the planner compares words (stems, stop words left out). */
function modifiersOf(language: string): ReadonlySet<string> {
  // Keyed by the table's languages only, so the map stays as small as the table.
  const known = MODIFIERS[language] ? language : "";
  let set = built.get(known);
  if (!set) {
    set = new Set(contentTerms(`${SHARED} ${MODIFIERS[known] ?? ""}`, language));
    built.set(known, set);
  }
  return set;
}

/** Whether a compared term (a stem) is a modifier in the language: one of its list, or a number (a year, "10"). */
export function isModifier(term: string, language: string): boolean {
  return /^[\p{N}.,]+$/u.test(term) || modifiersOf(language).has(term);
}
