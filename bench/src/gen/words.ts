/**
 * A small English vocabulary for generated names, bios and documents. The most frequent ranks are
 * real words; `vocabulary(n)` extends the list with pronounceable synthetic words for the long tail.
 */
import { porterStem } from '../../../src/engine/search/text/porter-stemmer.js';
import { Rng } from '../rng.js';

/**
 * Whether a word is its own Porter stem. The vocabulary keeps only such words, so a stemming
 * analyzer (graphdb, Lucene) and a non-stemming one (FTS5 unicode61) see the same terms.
 */
function stemStable(word: string): boolean {
  return porterStem(word) === word;
}

/** Common English words, roughly by frequency. */
export const COMMON_WORDS: readonly string[] = (
  'time year people way day man thing woman life child world school state family student group ' +
  'country problem hand part place case week company system program question work government number ' +
  'night point home water room mother area money story fact month lot right study book eye job word ' +
  'business issue side kind head house service friend father power hour game line end member law car ' +
  'city community name president team minute idea kid body information back parent face others level ' +
  'office door health person art war history party result change morning reason research girl guy ' +
  'moment air teacher force education foot boy age policy music market sense nation plan college ' +
  'interest death experience effect use class control care field development role effort rate heart ' +
  'drug show leader light voice wife police mind price report decision son view relationship town road ' +
  'arm difference value building action model season society tax director position player record paper ' +
  'space ground form event official matter center couple site project activity star table need court ' +
  'oil situation cost industry figure street image phone data picture practice piece land product ' +
  'doctor wall patient worker news test movie north love support technology step baby computer type ' +
  'attention film tree source organization hair window evidence population site garden river graph ' +
  'network query index search vector engine storage memory signal bridge energy ocean forest mountain ' +
  'island summer winter spring autumn coffee bread music dance paint letter garden stone silver golden ' +
  'quiet rapid bright simple strong gentle ancient modern hidden open early late happy serious local ' +
  'global public private social natural human green blue red black white small large young old new good'
).split(' ');

/** First names used for Person.name. */
export const FIRST_NAMES: readonly string[] = (
  'Ada Alan Alice Amir Ana Anna Ben Bruno Carla Chen Chloe Dan Dana David Elena Emma Eva Felix Fatima ' +
  'Grace Hana Hugo Ines Ivan Jack James Jana Joao Julia Kai Karl Kenji Lara Lea Leo Lin Liam Lucas Maya ' +
  'Mia Nina Noah Olga Omar Paul Priya Quinn Rosa Ravi Sara Sofia Tom Uma Vera Wei Yara Yusuf Zoe'
).split(' ');

/** Last names used for Person.name. */
export const LAST_NAMES: readonly string[] = (
  'Smith Garcia Muller Rossi Silva Kim Wang Novak Nielsen Dubois Costa Tanaka Ivanova Okafor Patel ' +
  'Cohen Jensen Moreau Santos Berg Lopez Meyer Fischer Weber Wagner Becker Schulz Hoffmann Koch Richter ' +
  'Klein Wolf Neumann Schwarz Braun Zimmermann Hartmann Lange Schmitt Werner Krause Meier Lehmann Walker'
).split(' ');

/** City names; Person.city is drawn from these with a skewed distribution. */
export const CITIES: readonly string[] = (
  'London Paris Berlin Madrid Rome Lisbon Vienna Prague Warsaw Dublin Oslo Stockholm Helsinki Athens ' +
  'Zurich Geneva Munich Hamburg Milan Naples Porto Seville Valencia Lyon Marseille Brussels Antwerp ' +
  'Amsterdam Rotterdam Copenhagen Krakow Budapest Bucharest Sofia Zagreb Belgrade Tallinn Riga Vilnius ' +
  'Tokyo Osaka Seoul Beijing Shanghai Delhi Mumbai Lagos Cairo Nairobi Austin Boston Chicago Denver ' +
  'Seattle Toronto Montreal Vancouver Lima Bogota Santiago Quito Sydney Melbourne Auckland'
).split(' ');

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'st', 'tr', 'pl'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ea'];
const CODAS = ['', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'st'];

/** `n` distinct lowercase stem-stable words: the common words first, then synthetic ones (deterministic). */
export function vocabulary(n: number, seed = 7): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const w of COMMON_WORDS) {
    if (words.length >= n) break;
    if (!seen.has(w) && stemStable(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  const rng = new Rng(seed);
  while (words.length < n) {
    const syllables = 2 + rng.int(2);
    let w = '';
    for (let s = 0; s < syllables; s++) {
      w += ONSETS[rng.int(ONSETS.length)] + VOWELS[rng.int(VOWELS.length)] + CODAS[rng.int(CODAS.length)];
    }
    if (!seen.has(w) && stemStable(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}
