import { identifyLanguage, isInLanguage } from "../../shared/text/language";

describe("language identification (franc)", () => {
  it.each([
    ["en", "The package manager keeps a local database of the packages installed on the system."],
    ["fr", "Le gestionnaire de paquets conserve une base de données locale des paquets installés sur le système."],
    ["de", "Der Paketmanager speichert eine lokale Datenbank der auf dem System installierten Pakete."],
    ["es", "El gestor de paquetes mantiene una base de datos local de los paquetes instalados en el sistema."],
  ])("identifies %s sentences", (lang, text) => {
    expect(identifyLanguage(text)).toBe(lang);
  });

  it("does not judge two-word headings", () => {
    expect(identifyLanguage("Fazit")).toBe("und");
    expect(isInLanguage("Conclusion", "de")).toBe(true);
  });

  it("finds English under translated framing", () => {
    expect(isInLanguage("Cet article s'intéresse à how retailers forecast demand and plan promotions for their stores every week.", "fr")).toBe(false);
  });

  it("leaves the customer's literal topic out of the judgement", () => {
    const framing = "Dieser Artikel beschäftigt sich mit how retailers forecast demand und erklärt die wichtigsten Schritte.";
    expect(isInLanguage(framing, "de", ["how retailers forecast demand"])).toBe(true);
  });
});

const TEXTS = {
  en: "Route planning decides how much of a technician's day is spent working and how much is spent driving, and the office should plan it the evening before.",
  de: "Die Routenplanung entscheidet, wie viel Zeit ein Techniker mit der Arbeit verbringt und wie viel mit dem Fahren, und das Büro sollte sie am Vorabend planen.",
  fr: "La planification des tournées décide du temps qu'un technicien passe à travailler et du temps qu'il passe sur la route, et le bureau doit la préparer la veille.",
  es: "La planificación de rutas decide cuánto tiempo pasa un técnico trabajando y cuánto conduciendo, y la oficina debe prepararla la noche anterior.",
};

describe("language identification", () => {
  it.each(Object.entries(TEXTS))("identifies %s prose", (lang, text) => {
    expect(identifyLanguage(text)).toBe(lang);
  });

  it("identifies short titles and headings", () => {
    expect(identifyLanguage("Why route planning matters for the office")).toBe("en");
    expect(identifyLanguage("Warum die Routenplanung für das Büro zählt")).toBe("de");
    expect(identifyLanguage("Pourquoi la planification compte pour les équipes")).toBe("fr");
    expect(identifyLanguage("Por qué importa la planificación de rutas")).toBe("es");
  });

  it("leaves text too short to judge undetermined", () => {
    expect(identifyLanguage("Route planning")).toBe("und");
    expect(identifyLanguage("Größenvergleich")).toBe("und");
    expect(identifyLanguage("")).toBe("und");
  });

  it("judges fields against the requested language", () => {
    expect(isInLanguage(TEXTS.de, "de-AT")).toBe(true);
    expect(isInLanguage(TEXTS.en, "de")).toBe(false);
    expect(isInLanguage("Route planning", "de")).toBe(true);
    // Languages beyond the four the pipeline writes are identified too.
    expect(isInLanguage(TEXTS.en, "pl")).toBe(false);
    expect(isInLanguage("Planowanie tras dla zespołów serwisowych", "pl")).toBe(true);
  });
});
