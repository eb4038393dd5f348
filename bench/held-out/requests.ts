/**
 * Natural requests of the held-out probe, with the verdict a reader of the sources expects, written before any
 * article was read (2026-11-27). Covered: the Debian FAQ or the New Maintainers' Guide has a chapter or section on
 * it, or most of a pasted list is about it; uncovered: nothing in the sources is. The guide's requests were added
 * at the ninth stop, written before the guide was crawled or read; the Valgrind manual's at the fifteenth, from its
 * pages' file names (mc-manual, ms-manual, hg-manual, cg-manual, manual-core-adv, faq) before any page was read.
 */
export interface HeldOutRequest {
  profile: "faq-en" | "faq-fr" | "faq-de" | "guide-es" | "guide-fr" | "guide-de" | "valgrind" | "bees" | "gatos";
  topic: string;
  language: "en" | "fr" | "de" | "es";
  target_words: number;
  mode: "standard" | "deep_research";
  expect: "write" | "refuse";
}

const r = (profile: HeldOutRequest["profile"], topic: string, language: HeldOutRequest["language"], target_words: number, expect: HeldOutRequest["expect"], mode: HeldOutRequest["mode"] = "standard"): HeldOutRequest => ({ profile, topic, language, target_words, mode, expect });

export const HELD_OUT_REQUESTS: HeldOutRequest[] = [
  r("faq-en", "How to keep a Debian system up to date", "en", 800, "write"),
  r("faq-en", "Understanding Debian's package management tools", "en", 800, "write", "deep_research"),
  r("faq-en", "Choosing between Debian stable, testing and unstable", "en", 800, "write"),
  r("faq-en", "Where to get help with Debian", "en", 600, "write"),
  r("faq-en", "How can I contribute to the Debian project?", "en", 600, "write"),
  r("faq-en", "Customizing a Debian installation: tips for beginners", "en", 600, "write"),
  r("faq-en", "Setting up a Kubernetes cluster on Raspberry Pi", "en", 600, "refuse"),
  r("faq-en", "Email marketing for small businesses", "en", 600, "refuse"),
  r("faq-fr", "Comment mettre à jour un système Debian", "fr", 800, "write"),
  r("faq-fr", "Choisir entre Debian stable, testing et unstable", "fr", 600, "write"),
  r("faq-fr", "Recette de la tarte Tatin", "fr", 600, "refuse"),
  r("faq-de", "Debian auf dem neuesten Stand halten", "de", 800, "write"),
  r("faq-de", "Die Paketverwaltungswerkzeuge von Debian verstehen", "de", 600, "write", "deep_research"),
  r("faq-de", "Häufige Fehler beim Bau eines Gartenteichs", "de", 600, "refuse"),
  r("bees", "How to start beekeeping", "en", 600, "write"),
  r("bees", "Common beekeeping mistakes to avoid", "en", 600, "write"),
  r("bees", "Preparing a beehive for winter", "en", 400, "write"),
  r("bees", "Dealing with varroa mites", "en", 400, "write"),
  r("bees", "How to make mead at home", "en", 600, "refuse"),
  r("gatos", "Cómo cuidar a un gato por primera vez", "es", 600, "write"),
  r("gatos", "Alimentación del gato: qué puede comer y qué no", "es", 600, "write"),
  r("gatos", "Errores comunes al cuidar un gato", "es", 600, "write"),
  r("gatos", "Cómo adiestrar a un perro", "es", 600, "refuse"),
  r("guide-es", "Cómo crear un paquete Debian desde cero", "es", 800, "write"),
  r("guide-es", "El archivo debian/control explicado", "es", 600, "write"),
  r("guide-es", "Cómo actualizar un paquete Debian a una nueva versión del programa original", "es", 600, "write"),
  r("guide-es", "Errores comunes al construir un paquete Debian", "es", 600, "write"),
  r("guide-es", "Cómo hacer una paella valenciana", "es", 600, "refuse"),
  r("guide-fr", "Construire un paquet Debian pour la première fois", "fr", 800, "write"),
  r("guide-fr", "Le fichier debian/rules", "fr", 600, "write"),
  r("guide-fr", "Vérifier un paquet avec lintian", "fr", 600, "write"),
  r("guide-fr", "Comment optimiser le référencement d'un site web", "fr", 600, "refuse"),
  r("guide-de", "Ein Debian-Paket hochladen", "de", 600, "write"),
  r("guide-de", "Die Datei debian/changelog richtig pflegen", "de", 600, "write"),
  r("guide-de", "Patches mit quilt verwalten", "de", 600, "write"),
  r("guide-de", "Tipps für den Gemüseanbau im Garten", "de", 600, "refuse"),
  r("valgrind", "Getting started with Valgrind", "en", 600, "write"),
  r("valgrind", "How to find memory leaks with Memcheck", "en", 800, "write"),
  r("valgrind", "Profiling heap memory with Massif", "en", 600, "write"),
  r("valgrind", "Detecting data races in multithreaded programs", "en", 600, "write", "deep_research"),
  r("valgrind", "Writing suppression files to hide known errors", "en", 600, "write"),
  r("valgrind", "Debugging a program under Valgrind with GDB", "en", 600, "write"),
  r("valgrind", "Cache profiling with Cachegrind", "en", 600, "write"),
  r("valgrind", "Cachegrind vs Callgrind: which profiler to use", "en", 600, "write"),
  r("valgrind", "Tuning garbage collection in the Java virtual machine", "en", 600, "refuse"),
  r("valgrind", "Writing unit tests in Python with pytest", "en", 600, "refuse"),
  r("valgrind", "Configuring a Kubernetes ingress controller", "en", 600, "refuse"),
];
