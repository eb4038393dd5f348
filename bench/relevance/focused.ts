import { unitsOfPool } from "../../services/pipeline/article/evidence/units";
import { CALIBRATION, type RelevanceFeatures, type WeightFit } from "../../services/pipeline/article/relevance";
import { corpusOf, developersReference, DEVELOPERS_REFERENCE_LANGUAGES, type Corpus } from "./corpus";
import { predict } from "./fit";
import { requestPool } from "./pool";
import { sample } from "./label-sample";
import labels from "./focused-labels.json";

/**
 * Natural requests on a FOCUSED book, Debian's Developer's Reference (en, fr, de), whose every page is about
 * Debian packages and their maintainers: the words of such a profile are most of any request's subject, and a
 * narrow request ("going on vacation as a Debian developer") is answered by a few sections among many that share
 * its profile-wide words. Written from the book's table of contents before any of its text was read, and none on
 * a subject of the held-out probe's requests on the New Maintainers' Guide (uploading, changelog, control, rules,
 * patches, lintian, building a first package, new upstream versions). A reader labelled the strips of each pool
 * (`focused-labels.json`). Nothing is fit on these labels: they measure the model on what its structure-labelled
 * fit never shows it.
 */
export interface FocusedRequest {
  lang: (typeof DEVELOPERS_REFERENCE_LANGUAGES)[number];
  topic: string;
}

const r = (lang: FocusedRequest["lang"], topic: string): FocusedRequest => ({ lang, topic });

export const FOCUSED_REQUESTS: readonly FocusedRequest[] = [
  r("en", "How to orphan or give up a Debian package"),
  r("en", "Responding to bug reports in your Debian package"),
  r("en", "Going on vacation as a Debian developer"),
  r("en", "Writing a good Debian package description"),
  r("en", "Best practices for maintainer scripts"),
  r("en", "How to sponsor packages for new contributors"),
  r("en", "Non-maintainer uploads: when are they acceptable?"),
  r("en", "Getting started with Debian mailing lists"),
  r("en", "Common mistakes new Debian maintainers make"),
  r("fr", "Gérer les bogues de sécurité d'un paquet Debian"),
  r("fr", "Comment adopter un paquet orphelin"),
  r("fr", "Bonnes pratiques pour les scripts du responsable"),
  r("fr", "Utiliser debconf correctement"),
  r("fr", "Faire traduire un paquet Debian"),
  r("fr", "Les distributions Debian expliquées"),
  r("fr", "Comment devenir développeur Debian"),
  r("fr", "Les listes de diffusion Debian : règles de base"),
  r("fr", "Erreurs fréquentes des nouveaux responsables Debian"),
  r("de", "Mehrere Binärpakete aus einem Quellpaket bauen"),
  r("de", "Einen Fehlerbericht richtig beantworten"),
  r("de", "Ein Paket in eine andere Sektion verschieben"),
  r("de", "Urlaub als Debian-Entwickler"),
  r("de", "Den öffentlichen Schlüssel pflegen"),
  r("de", "Eine gute Paketbeschreibung schreiben"),
  r("de", "Massenfehlerberichte einreichen"),
  r("de", "Die Architekturen des Debian-Archivs"),
  r("de", "Tipps für neue Debian-Betreuer"),
];

/**
 * Strips of a pool a reader labels: those the committed model reads as relevant (at most `RELEVANT_SAMPLE`, drawn
 * at random when there are more) and `OTHER_SAMPLE` of the rest, drawn at random (seeded), so the labels see both
 * sides of the threshold.
 */
const RELEVANT_SAMPLE = 30;
const OTHER_SAMPLE = 14;

const corpora = new Map<string, Corpus>();
export function focusedCorpus(lang: FocusedRequest["lang"]): Corpus {
  let corpus = corpora.get(lang);
  if (!corpus) corpora.set(lang, (corpus = corpusOf(developersReference(lang), lang)));
  return corpus;
}

/** The strips of a request's pool with their features under a fit. */
export function focusedStrips(request: FocusedRequest, fit: WeightFit) {
  const { pool, model } = requestPool(focusedCorpus(request.lang), request.topic, request.lang, fit);
  return unitsOfPool(pool, request.lang)
    .filter((u) => model.coverage.inLanguage(u))
    .map((u) => ({ text: u.text, heading: pool.find((p) => p.id === u.evidenceId)?.heading ?? "", features: model.features(u) as RelevanceFeatures }));
}

/** The candidates a reader labels, under the committed numbers. */
export function focusedCandidates() {
  return FOCUSED_REQUESTS.flatMap((request, i) => {
    const strips = focusedStrips(request, CALIBRATION).map((s) => ({ ...s, p: predict(CALIBRATION.coefficients, s.features) }));
    const relevant = strips.filter((s) => s.p >= CALIBRATION.relevant);
    const other = strips.filter((s) => s.p < CALIBRATION.relevant);
    return [...sample(relevant, RELEVANT_SAMPLE, 101 + i), ...sample(other, OTHER_SAMPLE, 202 + i)].map((s) => ({ lang: request.lang, request: request.topic, heading: s.heading, text: s.text }));
  });
}

export interface FocusedLabel {
  lang: FocusedRequest["lang"];
  request: string;
  text: string;
  on_topic: boolean;
  note?: string;
}

const LABELS = (labels as { labels: FocusedLabel[] }).labels;
/** The reader-labelled strips of the requests' pools, with their features under a fit (a strip no reader labelled is left out). */
export function focusedPairs(fit: WeightFit) {
  return FOCUSED_REQUESTS.flatMap((request) => {
    const mine = new Map(LABELS.filter((l) => l.request === request.topic).map((l) => [l.text, l.on_topic]));
    return focusedStrips(request, fit).flatMap((s) => {
      const relevant = mine.get(s.text);
      return relevant === undefined ? [] : [{ lang: request.lang, request: request.topic, text: s.text, relevant, features: s.features }];
    });
  });
}

if (require.main === module) process.stdout.write(focusedCandidates().map((c) => JSON.stringify(c)).join("\n") + "\n");
