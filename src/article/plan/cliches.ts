/**
 * The built-in AI clichés: phrases that mark a text as machine-written boilerplate. The
 * writer avoids them unless a request sets `style.cliches: false`, and the report counts
 * any that slip through. A phrase matches as written, case-insensitively, from a word's
 * start, with either apostrophe, its last word also with letters glued on ("delve" covers
 * "delves"); inflected forms are still listed one by one, so the report names the one found.
 *
 * The lists hold the openers, fillers and metaphors that style guides and studies of
 * model-written text name again and again, not ordinary words that happen to be frequent:
 * "crucial", "moreover" or "in summary" stay allowed, and transition words are what the
 * readability check asks for.
 */

/** English: required, and applied to every language (see {@link clichesFor}). */
const ENGLISH = [
  // Words that hardly occur outside model-written text.
  "delve",
  "delves",
  "delved",
  "delving",
  "tapestry",
  "tapestries",
  "multifaceted",
  "ever-evolving world",
  "game-changer",
  "game changer",
  "game-changing",
  // Openers and fillers.
  "in today's fast-paced world",
  "in today's digital age",
  "in today's digital world",
  "in today's world",
  "in today's digital landscape",
  "in today's competitive landscape",
  "in the ever-evolving landscape",
  "in the ever-changing landscape",
  "in the realm of",
  "in a world where",
  "it's important to note",
  "it is important to note",
  "it's worth noting",
  "it is worth noting",
  "it's important to remember",
  "it is important to remember",
  "it goes without saying",
  "needless to say",
  "without further ado",
  "look no further",
  "in this article, we will",
  "in this blog post, we will",
  "let's dive in",
  "let's dive into",
  "dive deep into",
  "deep dive into",
  "buckle up",
  "rest assured",
  "last but not least",
  "first and foremost",
  "at the end of the day",
  "when all is said and done",
  // Metaphors and promises.
  "a testament to",
  "unlock the potential",
  "unlock the full potential",
  "unlock the power",
  "unlock the secrets",
  "unleash the power",
  "unleash your",
  "harness the power",
  "embark on a journey",
  "embark on your journey",
  "embarking on a journey",
  "journey of self-discovery",
  "navigate the complexities",
  "navigating the complexities",
  "the intricacies of",
  "a treasure trove",
  "a plethora of",
  "a myriad of",
  "a symphony of",
  "a beacon of",
  "paving the way",
  "pave the way for",
  "plays a pivotal role",
  "play a pivotal role",
  "plays a crucial role",
  "play a crucial role",
  "shed light on",
  "sheds light on",
  "to the next level",
  "stay ahead of the curve",
  "elevate your",
  "revolutionize the way",
  "revolutionise the way",
  "one-stop shop",
  "holistic approach",
  "seamless integration",
  "cutting-edge solutions",
  "ever-changing world",
  "in our fast-paced world",
];

/** German. */
const GERMAN = [
  "in der heutigen schnelllebigen Welt",
  "in der heutigen digitalen Welt",
  "in der heutigen Zeit",
  "im digitalen Zeitalter",
  "in der sich ständig wandelnden Landschaft",
  "in der sich ständig verändernden Welt",
  "es ist wichtig zu beachten",
  "es ist wichtig, zu beachten",
  "es ist erwähnenswert",
  "es sei darauf hingewiesen",
  "es ist wichtig zu betonen",
  "es ist wichtig, zu betonen",
  "es versteht sich von selbst",
  "ohne weitere Umschweife",
  "in diesem Artikel erfahren Sie",
  "in diesem Artikel werden wir",
  "tauchen wir ein",
  "tauchen Sie ein",
  "lassen Sie uns eintauchen",
  "tauchen wir tiefer ein",
  "begeben Sie sich auf eine Reise",
  "begeben wir uns auf eine Reise",
  "auf eine Reise begeben",
  "ein Zeugnis für",
  "ein reiches Geflecht",
  "ein facettenreiches Mosaik",
  "das volle Potenzial entfalten",
  "das volle Potenzial ausschöpfen",
  "das Potenzial freisetzen",
  "die faszinierende Welt",
  "die spannende Welt",
  "auf die nächste Stufe",
  "Gamechanger",
  "Game-Changer",
  "der Schlüssel zum Erfolg",
  "zusammenfassend lässt sich sagen",
  "abschließend lässt sich sagen",
];

/** French. */
const FRENCH = [
  "dans le monde trépidant d'aujourd'hui",
  "dans le monde d'aujourd'hui",
  "à l'ère numérique",
  "à l'ère du numérique",
  "dans le paysage en constante évolution",
  "dans un monde en constante évolution",
  "dans un monde où",
  "il est important de noter",
  "il convient de noter",
  "il est essentiel de noter",
  "il est important de souligner",
  "il va sans dire",
  "sans plus attendre",
  "dans cet article, nous allons",
  "dans cet article, nous verrons",
  "plongeons dans",
  "plongeons au cœur",
  "plongez dans l'univers",
  "se lancer dans un voyage",
  "embarquer pour un voyage",
  "un véritable témoignage",
  "une riche tapisserie",
  "une tapisserie de",
  "libérer le potentiel",
  "libérer tout le potentiel",
  "exploiter tout le potentiel",
  "le monde fascinant de",
  "l'univers fascinant de",
  "changer la donne",
  "qui change la donne",
  "passer au niveau supérieur",
  "révolutionner la façon dont",
  "en conclusion",
  "n'hésitez pas à",
  "la clé du succès",
];

/** Spanish. */
const SPANISH = [
  "en el mundo acelerado de hoy",
  "en el vertiginoso mundo actual",
  "en la era digital",
  "en el panorama en constante evolución",
  "en un mundo en constante evolución",
  "en un mundo donde",
  "es importante tener en cuenta",
  "es importante señalar",
  "es importante destacar",
  "cabe destacar",
  "cabe señalar",
  "vale la pena destacar",
  "vale la pena mencionar",
  "no hace falta decir",
  "sin más preámbulos",
  "en este artículo, exploraremos",
  "en este artículo exploraremos",
  "sumerjámonos en",
  "adentrémonos en",
  "embarcarse en un viaje",
  "emprender un viaje",
  "un testimonio de",
  "un rico tapiz",
  "un tapiz de",
  "desbloquear el potencial",
  "liberar el potencial",
  "aprovechar todo el potencial",
  "el fascinante mundo de",
  "cambia las reglas del juego",
  "cambiar las reglas del juego",
  "un antes y un después",
  "al siguiente nivel",
  "revolucionar la forma en que",
  "en conclusión",
  "la clave del éxito",
];

/** Every list by ISO 639-1 code. */
export const CLICHES: Readonly<Record<string, readonly string[]>> = { en: ENGLISH, de: GERMAN, fr: FRENCH, es: SPANISH };

/**
 * The built-in clichés for an article in `language` (ISO 639-1): the language's own list,
 * then the English one. English applies to every language because an English cliché
 * cannot be a native phrase of another language's text: where one appears, it is a
 * borrowed buzzword ("ein echter Game-Changer") or a small model drifting into English,
 * which stories260K does whatever is asked. A language without a list of its own gets the
 * English one alone. Duplicates (case-insensitive) are dropped.
 */
export function clichesFor(language: string): string[] {
  const seen = new Set<string>();
  return [...(CLICHES[language] ?? []), ...ENGLISH].filter((phrase) => {
    const key = phrase.toLocaleLowerCase();
    return !seen.has(key) && seen.add(key);
  });
}
