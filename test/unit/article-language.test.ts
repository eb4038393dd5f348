import { identifyLanguage, isInLanguage } from "../../services/pipeline/article/language";

const TEXTS = {
  en: "Route planning decides how much of a technician's day is spent working and how much is spent driving, and the office should plan it the evening before.",
  de: "Die Routenplanung entscheidet, wie viel Zeit ein Techniker mit der Arbeit verbringt und wie viel mit dem Fahren, und das Büro sollte sie am Vorabend planen.",
  fr: "La planification des tournées décide du temps qu'un technicien passe à travailler et du temps qu'il passe sur la route, et le bureau doit la préparer la veille.",
  es: "La planificación de rutas decide cuánto tiempo pasa un técnico trabajando y cuánto conduciendo, y la oficina debe prepararla la noche anterior.",
};

describe("language identification", () => {
  it.each(Object.entries(TEXTS))("identifies %s prose", (lang, text) => {
    expect(identifyLanguage(text).lang).toBe(lang);
  });

  it("identifies short titles and headings", () => {
    expect(identifyLanguage("Why route planning matters for the office").lang).toBe("en");
    expect(identifyLanguage("Warum die Routenplanung für das Büro zählt").lang).toBe("de");
    expect(identifyLanguage("Pourquoi la planification compte pour les équipes").lang).toBe("fr");
    expect(identifyLanguage("Por qué importa la planificación de rutas").lang).toBe("es");
    expect(identifyLanguage("Größenvergleich").lang).toBe("de");
  });

  it("leaves text without function words undetermined", () => {
    expect(identifyLanguage("Route planning").lang).toBe("und");
    expect(identifyLanguage("").lang).toBe("und");
  });

  it("judges fields against the requested language", () => {
    expect(isInLanguage(TEXTS.de, "de-AT")).toBe(true);
    expect(isInLanguage(TEXTS.en, "de")).toBe(false);
    expect(isInLanguage("Route planning", "de")).toBe(true);
    // A language the identifier does not know accepts anything but clear English.
    expect(isInLanguage(TEXTS.en, "pl")).toBe(false);
    expect(isInLanguage("Planowanie tras dla zespołów serwisowych", "pl")).toBe(true);
  });
});
