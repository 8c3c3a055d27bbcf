/**
 * A keyword tool's export for "Coffee brewing at home", written by hand as one reads: seven
 * topics, each keyword with its monthly volume and difficulty, and the modifiers real exports
 * are full of ("best", "vs", "cheap", "review", "how to", "near me", "for", "with", prices and
 * years), attributes several topics share ("ratio", "recipe", "maker") and a few keywords that
 * name two topics ("pour over vs french press", filed under the first they name).
 */

/** The planted topics, each keyword as `keyword,volume,kd`. */
export const COFFEE_GROUPS: Record<string, string[]> = {
  espresso: [
    "espresso machine,40500,62",
    "best espresso machine,33100,71",
    "best espresso machine under 500,8100,45",
    "espresso machine reviews,6600,58",
    "cheap espresso machine,5400,40",
    "espresso machine for beginners,2900,35",
    "how to descale an espresso machine,4400,22",
    "espresso shot ratio,1300,18",
    "espresso vs americano,9900,30",
    "top 10 espresso machines 2024,1900,52",
    "espresso tamping pressure,880,15",
    "espresso machine repair near me,1600,20",
  ],
  "french press": [
    "french press,60500,55",
    "how to use a french press,22200,25",
    "french press ratio,4400,19",
    "best french press,12100,48",
    "french press vs drip coffee,2400,21",
    "french press grind size,3600,17",
    "cheap french press,1300,20",
    "french press for one person,880,12",
    "stainless steel french press review,720,26",
    "french press brew time,1600,13",
  ],
  "pour over": [
    "pour over coffee,27100,44",
    "pour over ratio,2900,16",
    "best pour over kettle,4400,39",
    "gooseneck kettle for pour over,1000,21",
    "how to make pour over coffee,8100,28",
    "v60 vs chemex,3600,24",
    "hario v60 recipe,2400,15",
    "chemex pour over,5400,33",
    "chemex filters,2900,20",
    "pour over coffee maker,3600,41",
    "pour over vs french press,1900,18",
  ],
  "cold brew": [
    "cold brew coffee,49500,50",
    "how to make cold brew,33100,30",
    "cold brew ratio,6600,17",
    "cold brew concentrate,8100,26",
    "best cold brew maker,5400,42",
    "cold brew vs iced coffee,14800,23",
    "cold brew caffeine,4400,20",
    "cold brew recipe,6600,22",
    "how long to steep cold brew,2400,12",
    "iced coffee with cold brew concentrate,1300,14",
  ],
  grinders: [
    "coffee grinder,49500,58",
    "burr grinder,14800,47",
    "best coffee grinder,22200,66",
    "burr vs blade grinder,5400,29",
    "best burr grinder under 100,2900,38",
    "manual coffee grinder,6600,36",
    "coffee grinder reviews,1900,45",
    "how to clean a coffee grinder,3600,19",
    "conical burr grinder,1300,31",
    "cheap coffee grinder,1000,27",
    "grinder for espresso,1600,34",
  ],
  beans: [
    "coffee beans,74000,68",
    "best coffee beans,27100,70",
    "light vs dark roast,9900,27",
    "dark roast coffee beans,5400,40",
    "light roast coffee,4400,33",
    "medium roast,3600,30",
    "arabica vs robusta beans,8100,25",
    "single origin coffee beans,2400,29",
    "how to store coffee beans,6600,18",
    "whole bean coffee near me,1900,22",
    "fresh roasted coffee beans,1600,31",
    "how to roast coffee beans at home,1300,24",
  ],
  milk: [
    "milk frother,60500,52",
    "how to froth milk,12100,21",
    "best milk frother,9900,49",
    "latte art,22200,35",
    "latte vs cappuccino,18100,19",
    "cappuccino recipe,5400,23",
    "oat milk for lattes,2400,16",
    "steaming milk for latte art,1600,20",
    "handheld milk frother review,880,30",
    "flat white vs latte,6600,17",
  ],
};

/** The export as a keyword tool writes it, most searched first, and each keyword's topic. */
export function coffeeExport(): { csv: string; keywords: string[]; truth: number[] } {
  const rows = Object.values(COFFEE_GROUPS).flatMap((lines, group) => lines.map((line) => ({ line, group })));
  rows.sort((a, b) => Number(b.line.split(",")[1]) - Number(a.line.split(",")[1]));
  return {
    csv: ["Keyword,Volume,KD", ...rows.map((r) => r.line)].join("\n"),
    keywords: rows.map((r) => r.line.split(",")[0]!),
    truth: rows.map((r) => r.group),
  };
}
