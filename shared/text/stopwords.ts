/**
 * Word lists. Stopwords (function words) carry no topic and are dropped before indexing. COMMON_WORDS are
 * frequent English content words: they stay searchable but weigh less in the hashed embedding and are not
 * "distinctive vocabulary" of a brand.
 */

const ENGLISH_STOPWORDS = `a about above across after again against all along also am among an and any are aren't as at be because been before being
below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each either
etc few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him
himself his how how's however i i'd i'll i'm i've if in into is isn't it it's its itself just let's may me might more
most must mustn't my myself neither no nor not of off on once only or other ought our ours ourselves out over own per
same shall shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them
themselves then there there's these they they'd they'll they're they've this those through thus to too toward towards under until
up upon us very via was wasn't we we'd we'll we're we've were weren't what what's when when's where where's whether
which while who who's whom whose why why's will with within without won't would wouldn't yet you you'd you'll you're you've your
yours yourself yourselves`;

const GERMAN_STOPWORDS = `aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes auch auf
aus bei bin bis bist da damit dann das dass dem den denn der des dessen dich die dies diese diesem diesen dieser dieses
dir doch dort du durch ein eine einem einen einer eines er es etwas euch euer eure für hab habe haben hat hatte hatten
hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im in indem ins ist jede jedem jeden jeder jedes
jene jetzt kann kein keine keinem keinen keiner können könnte man manche mein meine mit muss musste nach nicht nichts
noch nun nur ob oder ohne sehr sein seine seinem seinen seiner sich sie sind so solche soll sollte sondern sonst über
um und uns unser unsere unter viel vom von vor war waren warst was weil weiter welche welchem welchen welcher welches
wenn wer werde werden wie wieder will wir wird wirst wo wollen wollte würde würden zu zum zur zwar zwischen
ab allerdings ans aufs außer außerdem beide beiden beim bereits dabei dadurch dafür dagegen daher danach daneben daran
darauf daraus darf darfst darin darum darunter darüber davon davor dazu dein deine deinem deinen deiner deines denen
deren derer deshalb dürfen durchs einander einige einigen einiger einiges einmal entweder etwa fürs gegenüber hast
hätte hätten jedoch jemand mag mich mir möchte mögen müssen nachdem neben nie niemand sei seid seien seit seitdem
sowie statt trotz übers ums unters vors während wegen wem wen wessen wohl worden wurde wurden wäre zudem
gegen innerhalb außerhalb anhand gemäß`;

const ENGLISH_COMMON_WORDS = `able across add added already always another around ask available back based best better big
bring build built call called came change check choose come comes company day days different does done easy end
even every example find first free get gets give go going good great help helps high home keep know last learn
less let like little long look lot made make makes making many means month more much need needs new next now
number offer old one open part people place plan point put quick read ready real really right run say see set
show simple small start started still support sure take team teams thing things think time times today top try
two type use used user users using want way ways well work works world year years`;

function wordSet(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean));
}

/**
 * French and Spanish come from the `stopword` package's lists (maintained, 60+ languages), with the elided
 * forms French writes with an apostrophe ("l'", "d'", "qu'") and the contractions Spanish writes whole.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const listed = require("stopword") as { fra: string[]; spa: string[] };
// The lists lack most prepositions: « Choisir entre Debian stable, testing et unstable » was weighed on « entre »,
// the rarest word of the request, and found almost nothing about it (2026-11-27, a held-out probe).
const FRENCH_EXTRA = "l d qu s n c j m t au aux du des les une un est sont été être cette ces son sa ses leur leurs sous entre contre vers chez depuis pendant selon parmi malgré envers avant après dès jusqu hors durant lors auprès afin";
const SPANISH_EXTRA = "al del lo los las una unos unas es son está están ser sus su este esta estos estas ante entre hacia mediante según tras";

const STOPWORDS: Record<string, ReadonlySet<string>> = {
  en: wordSet(ENGLISH_STOPWORDS),
  de: wordSet(GERMAN_STOPWORDS),
  fr: new Set([...listed.fra, ...FRENCH_EXTRA.split(" ")]),
  es: new Set([...listed.spa, ...SPANISH_EXTRA.split(" ")]),
};

export const COMMON_WORDS: ReadonlySet<string> = wordSet(ENGLISH_COMMON_WORDS);

/** The primary language subtag: "en-GB" → "en". */
export function baseLanguage(lang: string | undefined): string {
  return (lang ?? "en").toLowerCase().split(/[-_]/)[0] || "en";
}

/** Stopwords of the language; English ones too for other languages, since brand sites mix English terms in. */
export function isStopword(word: string, lang = "en"): boolean {
  const base = baseLanguage(lang);
  return STOPWORDS.en.has(word) || (base !== "en" && (STOPWORDS[base]?.has(word) ?? false));
}
